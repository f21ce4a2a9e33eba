//! The order group: its envelope, its extractors, and the nine operations.

use axum::Json;
use axum::extract::rejection::PathRejection;
use axum::extract::{FromRequest, FromRequestParts, Path, Request, State};
use axum::http::StatusCode;
use axum::http::request::Parts;
use axum::response::{IntoResponse, Response};
use wire::parse::FromJson;

use super::admit::{Admission, Query, Refusal, admit, json_body};
use super::closing::close_connection;
use super::described::{AppKey, Nonce, OrderRefusals};
use super::listing;
use crate::auth::Caller;
use crate::error::OpError;
use crate::quotas;
use crate::rules::{assets, customers, locks, orders, shellnums};
use crate::shared::{AppState, Shared};
use crate::sql;
use support::clock::now_ms;
use wire::envelope::{self, BUSINESS_EXCEPTION_STATUS, OrderDone};
use wire::{
    Asset, BatchOrderRequest, BatchOrderResult, BindRequest, CreatedEnterprise, Customer,
    CustomerQuery, DefaultFilter, EnterpriseRequest, LockRequest, LockResult, OrderEnvelope,
    ShellnumsRequest, paths, scopes, validate,
};

/// A refused order-group call, rendered in the group's envelope. `close` is set when the
/// request's body may be unread: the connection cannot carry another request then.
pub struct OrderFailure {
    refusal: Refusal,
    close: bool,
}

impl OrderFailure {
    fn before_body(refusal: impl Into<Refusal>) -> Self {
        Self {
            refusal: refusal.into(),
            close: true,
        }
    }
}

impl From<OpError> for OrderFailure {
    fn from(e: OpError) -> Self {
        Self {
            refusal: Refusal::Op(e),
            close: false,
        }
    }
}

impl IntoResponse for OrderFailure {
    fn into_response(self) -> Response {
        let (status, code, message, cause) = match self.refusal {
            Refusal::Unauthorized(m) => (
                StatusCode::UNAUTHORIZED,
                envelope::UNAUTHORIZED,
                m,
                "unauthorized".to_owned(),
            ),
            Refusal::Forbidden(m) => (
                StatusCode::FORBIDDEN,
                envelope::FORBIDDEN,
                m,
                "scope missing".to_owned(),
            ),
            Refusal::Op(e) => {
                let code = e.code();
                match e {
                    OpError::Invalid { message, cause } => {
                        tracing::debug!(%message, "refused");
                        (business_exception(), code, message, cause)
                    }
                    OpError::Busy(message) => {
                        tracing::warn!(%message, "refused: busy");
                        (
                            business_exception(),
                            code,
                            message,
                            "too much of this work in hand; nothing was read or written".to_owned(),
                        )
                    }
                    other => {
                        tracing::error!(error = %other, "operation failed");
                        (
                            business_exception(),
                            code,
                            "system exception, nothing was written; retry".to_owned(),
                            other.to_string(),
                        )
                    }
                }
            }
        };
        let body: OrderEnvelope<()> = OrderEnvelope::failure(code, message, cause);
        let mut response = (status, Json(body)).into_response();
        if status.as_u16() == BUSINESS_EXCEPTION_STATUS {
            // hyper knows no reason phrase for 299.
            response
                .extensions_mut()
                .insert(hyper::ext::ReasonPhrase::from_static(b"Business Exception"));
        }
        if self.close {
            close_connection(&mut response);
        }
        response
    }
}

fn business_exception() -> StatusCode {
    StatusCode::from_u16(BUSINESS_EXCEPTION_STATUS).unwrap_or(StatusCode::OK)
}

type Reply<T> = Result<Json<OrderEnvelope<T>>, OrderFailure>;

fn ok<T>(data: T) -> Reply<T> {
    Ok(Json(OrderEnvelope::success(data)))
}

/// An admitted order-group call with its JSON body as read (the nonce is not spent yet).
pub struct Call<T> {
    admission: Admission,
    body: Result<T, OpError>,
    unread: bool,
}

impl<T: FromJson + Send> FromRequest<AppState> for Call<T> {
    type Rejection = OrderFailure;

    async fn from_request(req: Request, state: &AppState) -> Result<Self, Self::Rejection> {
        let (parts, body) = req.into_parts();
        let admission = admit(state, &parts, scopes::ORDER)
            .await
            .map_err(OrderFailure::before_body)?;
        let body = json_body(&parts.headers, body, state.body_timeout).await;
        Ok(Self {
            admission,
            body: body.value,
            unread: body.unread,
        })
    }
}

impl<T: Send + 'static> Call<T> {
    /// Checks the body, then spends the nonce and runs `op` in one write transaction.
    async fn run<R: Send + 'static>(
        self,
        s: &AppState,
        check: impl FnOnce(&Caller, &T) -> Result<(), OpError>,
        op: impl FnMut(&dyn sql::Tx, &Shared, &Caller, &T) -> Result<R, OpError> + Send + 'static,
    ) -> Result<R, OrderFailure> {
        let unread = self.unread;
        let caller = &self.admission.caller;
        let body = self.body.and_then(|b| check(caller, &b).map(|()| b));
        self.admission
            .run(s, body, op)
            .await
            .map_err(|e| OrderFailure {
                refusal: Refusal::Op(e),
                close: unread,
            })
    }
}

/// An admitted order-group call without a body (GET): its nonce spent, ready to read.
pub struct Get {
    query: Query,
}

impl FromRequestParts<AppState> for Get {
    type Rejection = OrderFailure;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let admission = admit(state, parts, scopes::ORDER)
            .await
            .map_err(OrderFailure::before_body)?;
        let (_, query) = admission
            .spend_alone(state)
            .await
            .map_err(OrderFailure::before_body)?;
        Ok(Self { query })
    }
}

fn checked(problems: Vec<validate::Problem>) -> Result<(), OpError> {
    OpError::check(problems)
}

#[utoipa::path(
    post, path = paths::BIND, tag = "order", operation_id = "bind",
    summary = "1. Create a customer and bind it to an enterprise master account",
    params(Nonce), security(("bearer" = [])),
    request_body(content = BindRequest, example = json!({
        "channelCode": "CRM", "channelCustomerId": "C-10001", "customerName": "上海测试客户",
        "branchName": "上海分公司", "enterpriseName": "上海测试企业", "passwordMobile": "13800138000"
    })),
    responses((status = 200, description = "The customer", body = OrderEnvelope<Customer>), OrderRefusals)
)]
/// Operation 1.
pub async fn bind(State(s): State<AppState>, call: Call<BindRequest>) -> Reply<Customer> {
    ok(call
        .run(
            &s,
            |_, b| checked(validate::bind(b)),
            |tx, _, _, b| customers::bind(tx, b, now_ms()),
        )
        .await?)
}

#[utoipa::path(
    post, path = paths::CREATE, tag = "order", operation_id = "create",
    summary = "2. Create an enterprise master account with its default customer",
    params(Nonce), security(("bearer" = [])),
    request_body(content = EnterpriseRequest, example = json!({
        "crmCustomerId": "CRM-10001", "customerName": "上海测试企业", "branchName": "上海分公司",
        "address": "上海市浦东新区世纪大道 100 号"
    })),
    responses((status = 200, description = "The enterprise and its members",
               body = OrderEnvelope<CreatedEnterprise>), OrderRefusals)
)]
/// Operation 2.
pub async fn create(
    State(s): State<AppState>,
    call: Call<EnterpriseRequest>,
) -> Reply<CreatedEnterprise> {
    ok(call
        .run(
            &s,
            |_, b| checked(validate::enterprise(b)),
            |tx, _, _, b| customers::create(tx, b, now_ms()),
        )
        .await?)
}

#[utoipa::path(
    get, path = paths::QUERY, tag = "order", operation_id = "query",
    summary = "3. The customers of a channel customer",
    params(Nonce, CustomerQuery), security(("bearer" = [])),
    responses((status = 200, description = "The customers", body = OrderEnvelope<Vec<Customer>>),
              OrderRefusals)
)]
/// Operation 3.
pub async fn query(State(s): State<AppState>, call: Get) -> Reply<Vec<Customer>> {
    let default_customer = match call.query.get("defaultCustomer")? {
        None | Some("") => None,
        Some("Y") => Some(DefaultFilter::Y),
        Some("N") => Some(DefaultFilter::N),
        Some(other) => {
            return Err(OpError::invalid(
                "defaultCustomer",
                format!(
                    "must be Y (only the default customer) or N (all customers), not {other:?}"
                ),
            )
            .into());
        }
    };
    let q = CustomerQuery {
        channel_code: call.query.get("channelCode")?.map(str::to_owned),
        channel_customer_id: call.query.get("channelCustomerId")?.map(str::to_owned),
        default_customer,
    };
    OpError::check(validate::customer_query(&q))?;
    let found = s
        .read(move |tx, _| {
            Ok(customers::query(
                tx,
                q.channel_code.as_deref().unwrap_or_default().trim(),
                q.channel_customer_id.as_deref().unwrap_or_default().trim(),
                q.default_customer.unwrap_or(DefaultFilter::N),
            )?)
        })
        .await?;
    ok(found)
}

#[utoipa::path(
    post, path = paths::UPDATE, tag = "order", operation_id = "update",
    summary = "4. Change the name and address of a CRM enterprise customer",
    params(Nonce), security(("bearer" = [])),
    request_body(content = EnterpriseRequest, example = json!({
        "crmCustomerId": "CRM-10001", "customerName": "上海测试企业",
        "address": "上海市浦东新区世纪大道 200 号"
    })),
    responses((status = 200, description = "Done: code and message only, no data",
               body = inline(OrderDone)), OrderRefusals)
)]
/// Operation 4: answers without a `data` field.
pub async fn update(
    State(s): State<AppState>,
    call: Call<EnterpriseRequest>,
) -> Result<Json<OrderEnvelope<()>>, OrderFailure> {
    call.run(
        &s,
        |_, b| checked(validate::enterprise(b)),
        |tx, _, _, b| customers::update(tx, b, now_ms()),
    )
    .await?;
    Ok(Json(OrderEnvelope::done()))
}

#[utoipa::path(
    post, path = paths::BATCH_ORDER, tag = "order", operation_id = "batchOrder",
    summary = "5. A batch of license orders, applied all or none",
    params(Nonce, AppKey), security(("bearer" = [])),
    request_body(content = BatchOrderRequest, example = json!({
        "channelCode": "CRM", "channelOrderId": "SO-2026-0001", "syncMode": "sync",
        "orderList": [{
            "sequence": 1, "channelCustomerId": "C-10001", "customerName": "上海测试客户",
            "licenseType": "normal_recover_usbkey", "orderType": "new_buy",
            "assets": [{"assetNos": ["8000000001"], "products": [
                {"productUri": "gms-1001", "productName": "设计软件", "limitConcurrent": 1}
            ]}]
        }]
    })),
    responses((status = 200, description = "One result per order",
               body = OrderEnvelope<Vec<BatchOrderResult>>), OrderRefusals)
)]
/// Operation 5.
pub async fn batch_order(
    State(s): State<AppState>,
    call: Call<BatchOrderRequest>,
) -> Reply<Vec<BatchOrderResult>> {
    let app_key = call
        .admission
        .query
        .get("appKey")
        .map(|k| k.map(str::to_owned));
    let accepted = call
        .run(
            &s,
            |caller, b| {
                match app_key?.as_deref() {
                    None | Some("") => return Err(OpError::invalid("appKey", "required")),
                    Some(key) if key != caller.app_key => {
                        return Err(OpError::invalid(
                            "appKey",
                            "is not the key of the application the token was issued to",
                        ));
                    }
                    Some(_) => {}
                }
                checked(validate::batch_order(b))
            },
            |tx, _, caller, b| orders::submit(tx, &caller.app_key, b, now_ms()),
        )
        .await?;
    if accepted.pending && !accepted.replayed {
        s.pending_batches.notify_one();
    }
    ok(accepted.results)
}

#[utoipa::path(
    post, path = paths::LOCK, tag = "order", operation_id = "lock",
    summary = "6. Disable locks: a status per asset (1 done, 2 no such lock, 3 failed, 4 wrong type)",
    params(Nonce), security(("bearer" = [])),
    request_body(content = LockRequest, example = json!({
        "assetNums": ["8000000001"], "operatorIdentity": "张三"
    })),
    responses((status = 200, description = "A status per asset",
               body = OrderEnvelope<Vec<LockResult>>), OrderRefusals)
)]
/// Operation 6.
pub async fn lock(State(s): State<AppState>, call: Call<LockRequest>) -> Reply<Vec<LockResult>> {
    set_locked(s, call, true).await
}

#[utoipa::path(
    post, path = paths::UNLOCK, tag = "order", operation_id = "unlock",
    summary = "7. Enable locks again: a status per asset as for lock",
    params(Nonce), security(("bearer" = [])),
    request_body(content = LockRequest, example = json!({
        "assetNums": ["8000000001"], "operatorIdentity": "张三"
    })),
    responses((status = 200, description = "A status per asset",
               body = OrderEnvelope<Vec<LockResult>>), OrderRefusals)
)]
/// Operation 7.
pub async fn unlock(State(s): State<AppState>, call: Call<LockRequest>) -> Reply<Vec<LockResult>> {
    set_locked(s, call, false).await
}

async fn set_locked(s: AppState, call: Call<LockRequest>, locked: bool) -> Reply<Vec<LockResult>> {
    ok(call
        .run(
            &s,
            |_, b| checked(validate::lock(b)),
            move |tx, _, caller, b| {
                let operator = b.operator_identity.as_deref().unwrap_or_default().trim();
                locks::set_locked(
                    tx,
                    &b.asset_nums,
                    locked,
                    operator,
                    &caller.app_key,
                    now_ms(),
                )
            },
        )
        .await?)
}

#[utoipa::path(
    get, path = paths::ASSET_LIST, tag = "order", operation_id = "assetList",
    summary = "8. The assets of an enterprise master account",
    params(
        Nonce,
        ("enterpriseGlobalId" = String, Path, min_length = 1, max_length = 64,
         example = "EG0000000001", description = "Global id of the enterprise master account"),
        ("extendCode" = Option<String>, Query, max_length = 64,
         description = "Only the assets carrying this extension attribute code (e.g. gxxp)")
    ),
    security(("bearer" = [])),
    responses((status = 200, description = "The assets", body = OrderEnvelope<Vec<Asset>>),
              OrderRefusals)
)]
/// Operation 8: checked and its enterprise found like any call, then streamed (`listing`).
pub async fn asset_list(
    State(s): State<AppState>,
    call: Get,
    path: Result<Path<String>, PathRejection>,
) -> Result<Response, OrderFailure> {
    let Path(enterprise_global_id) =
        path.map_err(|e| OpError::invalid("enterpriseGlobalId", e.body_text()))?;
    let extend_code = call
        .query
        .get("extendCode")?
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .map(str::to_owned);
    checked(validate::query_id(
        "enterpriseGlobalId",
        enterprise_global_id.trim(),
    ))?;
    if let Some(code) = &extend_code {
        checked(validate::query_id("extendCode", code))?;
    }
    let id = enterprise_global_id.trim().to_owned();
    // An unknown enterprise is refused without waiting for a listing's turn. Enterprises are
    // never deleted, so the row found here is still there when the listing reads.
    let enterprise = s.read(move |tx, _| assets::enterprise(tx, &id)).await?;
    Ok(listing::respond(&s, enterprise, extend_code).await?)
}

#[utoipa::path(
    post, path = paths::SHELLNUMS, tag = "order", operation_id = "shellnums",
    summary = "9. Asset numbers: 10 digits, the first the region",
    params(Nonce), security(("bearer" = [])),
    request_body(content = ShellnumsRequest, example = json!({"size": 3})),
    responses((status = 200, description = "The numbers", body = OrderEnvelope<Vec<String>>),
              OrderRefusals)
)]
/// Operation 9.
pub async fn shellnums(
    State(s): State<AppState>,
    call: Call<ShellnumsRequest>,
) -> Reply<Vec<String>> {
    ok(call
        .run(
            &s,
            |_, b| checked(validate::shellnums(b)),
            |tx, shared, caller, b| {
                let size = b.size.unwrap_or_default();
                // Counted in the same transaction: a refusal or a failure allocates nothing.
                quotas::charge_numbers(
                    tx,
                    &caller.app_key,
                    i64::from(size),
                    shared.number_quota,
                    now_ms(),
                )?;
                shellnums::allocate(tx, shared.region, size)
            },
        )
        .await?)
}

/// Any other path: 404 in the order group's envelope.
pub async fn not_found(req: Request) -> Response {
    let body: OrderEnvelope<()> = OrderEnvelope::failure(
        envelope::NOT_FOUND,
        format!("no operation at {}", req.uri().path()),
        "not found",
    );
    let mut response = (StatusCode::NOT_FOUND, Json(body)).into_response();
    close_connection(&mut response);
    response
}

/// A known path with another method: 405 in the order group's envelope.
pub async fn method_not_allowed(req: Request) -> Response {
    let body: OrderEnvelope<()> = OrderEnvelope::failure(
        envelope::METHOD_NOT_ALLOWED,
        format!(
            "{} is not an operation of {}",
            req.method(),
            req.uri().path()
        ),
        "method not allowed",
    );
    let mut response = (StatusCode::METHOD_NOT_ALLOWED, Json(body)).into_response();
    close_connection(&mut response);
    response
}
