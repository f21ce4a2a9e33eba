//! Answers that end their connection.

use axum::response::Response;

/// Marks the answer as the connection's last (an unread body would be taken for the next
/// request otherwise).
pub fn close_connection(response: &mut Response) {
    response.headers_mut().insert(
        axum::http::header::CONNECTION,
        axum::http::HeaderValue::from_static("close"),
    );
}
