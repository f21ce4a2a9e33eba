//! Approvers mailed when a request waits for them (`team serve --mail-server`, off unless
//! given): by the instance that filed the request, once, over SMTP with STARTTLS required. A
//! mail that cannot be sent is logged; the request waits all the same, on the Approvals screen.

use std::path::PathBuf;
use std::time::Duration;

use client::Secret;
use lettre::message::header::{ContentTransferEncoding, ContentType};
use lettre::message::{Body, Mailbox};
use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::client::{Certificate, Tls, TlsParameters};
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

use crate::people::{self, Person};
use crate::requests::{self, Request};
use crate::store::TeamStore;

/// The submission port (RFC 6409).
pub const DEFAULT_PORT: u16 = 587;

/// How long one SMTP command may take before the mail is given up.
const COMMAND_TIMEOUT: Duration = Duration::from_secs(30);

#[derive(Debug, Clone)]
pub struct MailConfig {
    /// The SMTP server's host name, as its certificate names it.
    pub server: String,
    pub port: u16,
    /// The sender, `name@domain` or `Name <name@domain>`.
    pub from: String,
    /// Sign-in on the mail server, if it asks for one.
    pub user: Option<String>,
    pub password: Option<Secret>,
    /// A private CA's certificate (PEM) trusted besides the system's.
    pub ca_file: Option<PathBuf>,
}

#[derive(Debug, thiserror::Error)]
pub enum MailError {
    #[error("--mail-from {0:?} is not an address: {1}")]
    From(String, lettre::address::AddressError),
    #[error("--mail-ca {0}: {1}")]
    Ca(String, String),
    #[error("--mail-user needs a password (LICENSE_DESK_MAIL_PASSWORD)")]
    NoPassword,
    #[error("the mail server {0} cannot be used: {1}")]
    Smtp(String, lettre::transport::smtp::Error),
}

/// Sends the team server's mail; cheap to clone.
#[derive(Clone)]
pub struct Mailer {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: Mailbox,
}

impl Mailer {
    pub fn new(config: &MailConfig) -> Result<Mailer, MailError> {
        let from = config
            .from
            .parse::<Mailbox>()
            .map_err(|e| MailError::From(config.from.clone(), e))?;
        let smtp = |e| MailError::Smtp(config.server.clone(), e);
        let mut tls = TlsParameters::builder(config.server.clone());
        if let Some(path) = &config.ca_file {
            let shown = path.display().to_string();
            let pem =
                std::fs::read(path).map_err(|e| MailError::Ca(shown.clone(), e.to_string()))?;
            let ca =
                Certificate::from_pem(&pem).map_err(|e| MailError::Ca(shown, e.to_string()))?;
            tls = tls.add_root_certificate(ca);
        }
        let mut builder = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(&config.server)
            .port(config.port)
            .timeout(Some(COMMAND_TIMEOUT))
            .tls(Tls::Required(tls.build().map_err(smtp)?));
        match (&config.user, &config.password) {
            (Some(user), Some(password)) => {
                let password = password.expose().to_owned();
                builder = builder.credentials(Credentials::new(user.clone(), password));
            }
            (Some(_), None) => return Err(MailError::NoPassword),
            _ => {}
        }
        Ok(Mailer {
            transport: builder.build(),
            from,
        })
    }

    /// Mails the approvers of a request just filed who have an address, in the background.
    pub fn tell_approvers(&self, store: TeamStore, request: Request) {
        let mailer = self.clone();
        tokio::spawn(async move {
            let name = wire::approval::name(request.id);
            match mailer.send_to_approvers(&store, &request).await {
                Ok(0) => tracing::debug!(request = %name, "no approver of it has an email"),
                Ok(n) => tracing::info!(request = %name, approvers = n, "approvers mailed"),
                Err(e) => tracing::warn!(request = %name, error = %e, "approvers not mailed"),
            }
        });
    }

    async fn send_to_approvers(
        &self,
        store: &TeamStore,
        request: &Request,
    ) -> Result<usize, Box<dyn std::error::Error + Send + Sync>> {
        let requester = people::get(store, &request.requester).await?;
        let approvers = requests::approving_people(store, &requester).await?;
        let mut sent = 0;
        for approver in approvers {
            let Some(to) = mailbox_of(&approver) else {
                continue;
            };
            let message = Message::builder()
                .from(self.from.clone())
                .to(to)
                .subject(subject(request))
                .header(ContentType::TEXT_PLAIN)
                .body(body(request, &requester))?;
            self.transport.send(message).await?;
            sent += 1;
        }
        Ok(sent)
    }
}

fn mailbox_of(person: &Person) -> Option<Mailbox> {
    let address = person.email.as_deref()?.parse().ok()?;
    Some(Mailbox::new(Some(person.display_name.clone()), address))
}

/// Both languages: the server does not know its approvers' language.
fn subject(request: &Request) -> String {
    let name = wire::approval::name(request.id);
    format!("{name} 等待您审批 · {name} waits for your approval")
}

/// Base64: lines of Chinese pass any relay unchanged.
fn body(request: &Request, requester: &Person) -> Body {
    let text = words(request, requester);
    Body::new_with_encoding(text, ContentTransferEncoding::Base64).unwrap_or_else(Body::new)
}

fn words(request: &Request, requester: &Person) -> String {
    let name = wire::approval::name(request.id);
    let branch = requester
        .branch
        .as_ref()
        .map_or_else(String::new, |b| format!(" · {} {}", b.code, b.name));
    let order = request
        .body
        .get("channelOrderId")
        .and_then(|id| id.as_str())
        .map_or_else(String::new, |id| {
            format!("\n渠道订单 / Channel order: {id}")
        });
    format!(
        "{name} 等待您审批。\n{name} waits for your approval.\n\n\
         申请人 / Requested by: {} ({}){branch}\n\
         内容 / What: {}{order}\n\n\
         请在 License Desk 的“审批”中处理。\n\
         Open Approvals in License Desk to decide it.\n",
        requester.display_name, requester.name, request.summary
    )
}
