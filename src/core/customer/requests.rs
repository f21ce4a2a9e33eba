//! What the window asks of a customer's page (docs/customers.md "The customer page"): the id
//! resolved by the directory, operation 3 and the listing read at once, the journal's calls
//! that touched the enterprise, and the page kept. When the platform does not answer, the kept
//! page is given, marked as such.

use std::path::PathBuf;
use std::sync::Arc;

use super::find::{Found, find};
use super::timeline::{Event, Keys, events_of, events_of_audit, merge};
use super::{CustomerError, Held, Page, TeamLog, load_cached, save_cached, write_page_xlsx};
use crate::core::catalog::entries::DirectoryEntry;
use crate::core::journal::{JournalEntry, JournalFilter};
use crate::core::renewals::{EnterpriseRead, Read, ReadState, Table};
use crate::core::renewals::{add_sent_from, keep, named};
use crate::core::request::{Request, Services};
use crate::core::team::{AuditEntry, AuditQuery};
use crate::core::{ApiError, CoreError};
use support::clock::now_ms;
use wire::{CustomerQuery, DefaultFilter};

/// Pages of the team server's audit log read for a page's timeline: its latest 10,000 entries.
const TEAM_PAGES: usize = 10;

/// What one read of the platform gave.
enum Got<T> {
    Read(T),
    /// The platform's refusal, or an answer not of the interface's shape: said in words.
    Refused(ReadState),
    /// No answer: the platform's words.
    NoAnswer(ApiError),
}

fn got<T>(r: Result<T, ApiError>) -> Got<T> {
    match r {
        Ok(t) => Got::Read(t),
        Err(ApiError::Platform { code, message, .. }) => {
            Got::Refused(ReadState::Refused { code, message })
        }
        Err(e @ ApiError::Unexpected { .. }) => Got::Refused(ReadState::Refused {
            code: String::new(),
            message: e.to_string(),
        }),
        Err(e) => Got::NoAnswer(e),
    }
}

/// Reads the page of the enterprise `id` means by the profile's directory (a customer id, a
/// channel customer id, an enterprise global id or a name) and keeps it; the choices when a
/// name fits several. When the platform does not answer, the kept page marked unreachable.
#[derive(Debug, Clone)]
pub struct ReadPage {
    pub profile: String,
    pub id: String,
}

/// What reading a page found.
#[derive(Debug, Clone, PartialEq)]
pub enum Opened {
    Page(Arc<Page>),
    /// The enterprises a name fits: each one's global id and name.
    Choices(Vec<(String, String)>),
}

impl Request for ReadPage {
    type Reply = Opened;

    fn profile(&self) -> Option<&str> {
        Some(&self.profile)
    }

    async fn serve(self, services: Services) -> Result<Opened, CoreError> {
        read_page(&services, &self.profile, &self.id).await
    }
}

/// The page kept for the enterprise, if one is.
#[derive(Debug, Clone)]
pub struct Cached {
    pub profile: String,
    pub global_id: String,
}

impl Request for Cached {
    type Reply = Option<Arc<Page>>;

    async fn serve(self, services: Services) -> Result<Self::Reply, CoreError> {
        let page = cached_page(&services, &self.profile, &self.global_id).await?;
        Ok(page.map(Arc::new))
    }
}

/// Writes the page to `path` as xlsx (its assets, timeline and customers); answers where.
#[derive(Debug, Clone)]
pub struct Export {
    pub path: PathBuf,
    pub page: Arc<Page>,
}

impl Request for Export {
    type Reply = PathBuf;

    async fn serve(self, _: Services) -> Result<PathBuf, CoreError> {
        let Export { path, page } = self;
        let written = path.clone();
        tokio::task::spawn_blocking(move || {
            let now = jiff::Zoned::now();
            write_page_xlsx(&page, now.date(), now.time_zone(), &path)
        })
        .await??;
        Ok(written)
    }
}

async fn read_page(services: &Services, profile: &str, id: &str) -> Result<Opened, CoreError> {
    // A team's directory as it is now: a colleague's new customer is placed too.
    services.0.pull_knowledge(profile).await;
    let entries = services.0.directory_of(profile);
    let global_id = match resolve(profile, id, &entries)? {
        Ok(global_id) => global_id,
        Err(choices) => return Ok(choices),
    };
    let mine: Vec<&DirectoryEntry> = entries
        .iter()
        .filter(|e| e.enterprise_global_id.as_deref() == Some(global_id.as_str()))
        .collect();
    let client = services.0.client(profile).await?;
    let query = channel_query(&mine);
    let started_at = now_ms();
    let (customers, listing) = tokio::join!(
        async {
            match &query {
                Some(q) => Some(got(client.query_customers(q).await)),
                None => None,
            }
        },
        async { got(client.assets(&global_id, None).await) }
    );
    let no_answer = match (&customers, &listing) {
        (Some(Got::NoAnswer(e)), _) | (_, Got::NoAnswer(e)) => Some(e.clone()),
        _ => None,
    };
    if let Some(e) = no_answer {
        return match cached_page(services, profile, &global_id).await? {
            Some(mut page) => {
                page.unreachable = Some(e.to_string());
                Ok(Opened::Page(Arc::new(page)))
            }
            None => Err(e.into()),
        };
    }
    let journal = services
        .0
        .journal_entries(JournalFilter {
            profile: Some(profile.to_owned()),
            ..JournalFilter::default()
        })
        .await;
    let mut page = Page {
        profile: profile.to_owned(),
        global_id: global_id.clone(),
        read_at: started_at,
        customers: Vec::new(),
        customers_state: ReadState::NotRead,
        assets: Vec::new(),
        holdings: holdings(profile, &global_id, &mine, started_at),
        timeline: Vec::new(),
        team_log: None,
        unreachable: None,
    };
    take(&mut page, customers, listing, &journal);
    let audit = team_audit(services, profile).await;
    let me = services.0.signed_in_as(profile);
    (page.timeline, page.team_log) = timeline_of(&page, &mine, &journal, audit, me.as_deref());
    let page = Arc::new(page);
    let (dir, kept) = (services.0.data_dir.clone(), Arc::clone(&page));
    keep("the customer page", move || save_cached(&dir, &kept)).await;
    Ok(Opened::Page(page))
}

/// On a team server's profile, its audit log's latest entries the person may see (every
/// person's for an administrator), up to [`TEAM_PAGES`] pages; None on another profile.
async fn team_audit(
    services: &Services,
    profile: &str,
) -> Option<Result<Vec<AuditEntry>, CoreError>> {
    if !services.0.is_team(profile) {
        return None;
    }
    let client = match services.0.client(profile).await {
        Ok(client) => client,
        Err(e) => return Some(Err(e)),
    };
    let mut entries = Vec::new();
    let mut before = None;
    for _ in 0..TEAM_PAGES {
        let query = AuditQuery {
            person: None,
            before,
            limit: Some(AuditQuery::MAX_LIMIT),
        };
        let page = match client.audit(&query).await {
            Ok(page) => page,
            Err(e) => return Some(Err(e.into())),
        };
        let full = page.len() >= AuditQuery::MAX_LIMIT as usize;
        before = page.last().map(|e| e.seq);
        entries.extend(page);
        if !full {
            break;
        }
    }
    Some(Ok(entries))
}

async fn cached_page(
    services: &Services,
    profile: &str,
    global_id: &str,
) -> Result<Option<Page>, CoreError> {
    let dir = services.0.data_dir.clone();
    let (profile, global_id) = (profile.to_owned(), global_id.to_owned());
    Ok(tokio::task::spawn_blocking(move || load_cached(&dir, &profile, &global_id)).await??)
}

/// The enterprise `id` means by the directory; the choices when a name fits several.
fn resolve(
    profile: &str,
    id: &str,
    entries: &[DirectoryEntry],
) -> Result<Result<String, Opened>, CoreError> {
    match find(entries, id) {
        Found::One(global_id) => Ok(Ok(global_id)),
        Found::Several(choices) => Ok(Err(Opened::Choices(choices))),
        Found::None => Err(CustomerError::Unknown {
            profile: profile.to_owned(),
            id: id.to_owned(),
        }
        .into()),
        Found::NoEnterprise => Err(CustomerError::NoEnterprise {
            profile: profile.to_owned(),
            id: id.to_owned(),
        }
        .into()),
    }
}

/// What the platform answered, and the batches sent for undated assets, into the page.
fn take(
    page: &mut Page,
    customers: Option<Got<Vec<wire::Customer>>>,
    listing: Got<wire::AssetList>,
    journal: &[JournalEntry],
) {
    match customers {
        Some(Got::Read(found)) => {
            page.customers = found;
            page.customers_state = ReadState::Read;
        }
        Some(Got::Refused(state)) => page.customers_state = state,
        Some(Got::NoAnswer(_)) | None => {}
    }
    let state = match listing {
        Got::Read(list) => {
            page.assets = Held::of(&list);
            let added = page.holdings.table.add_listing(0, &list);
            if let Some(e) = page.holdings.enterprises.first_mut() {
                (e.assets, e.undated) = (added.assets, added.undated);
            }
            ReadState::Read
        }
        Got::Refused(state) => state,
        Got::NoAnswer(_) => ReadState::NotRead,
    };
    if let Some(e) = page.holdings.enterprises.first_mut() {
        e.state = state;
    }
    add_sent_from(&mut page.holdings, journal);
    page.holdings.table.mark_renewed();
    page.holdings.ended_at = now_ms();
    page.holdings.sort();
}

/// The timeline: this console's journal, with the team server's audit log when one was read.
fn timeline_of(
    page: &Page,
    mine: &[&DirectoryEntry],
    journal: &[JournalEntry],
    audit: Option<Result<Vec<AuditEntry>, CoreError>>,
    me: Option<&str>,
) -> (Vec<Event>, Option<TeamLog>) {
    let keys = keys_of(page, mine);
    let ours = events_of(journal, &keys);
    match audit {
        None => (ours, None),
        Some(Ok(entries)) => {
            let read = TeamLog::Read {
                entries: u32::try_from(entries.len()).unwrap_or(u32::MAX),
            };
            let team = events_of_audit(&entries, &keys);
            (merge(ours, team, me), Some(read))
        }
        Some(Err(why)) => (
            ours,
            Some(TeamLog::NotRead {
                why: why.to_string(),
            }),
        ),
    }
}

/// Operation 3's question for the enterprise: the first entry with a channel and a channel
/// customer id, asking for all its customers.
fn channel_query(mine: &[&DirectoryEntry]) -> Option<CustomerQuery> {
    mine.iter().find_map(|e| {
        Some(CustomerQuery {
            channel_code: Some(e.channel_code.clone()?),
            channel_customer_id: Some(e.channel_customer_id.clone()?),
            default_customer: Some(DefaultFilter::N),
        })
    })
}

/// An empty one-enterprise read, named by the directory.
fn holdings(profile: &str, global_id: &str, mine: &[&DirectoryEntry], at: i64) -> Read {
    let mut e = EnterpriseRead::new(global_id.to_owned());
    for entry in mine {
        named(&mut e, entry);
    }
    Read {
        profile: profile.to_owned(),
        started_at: at,
        ended_at: at,
        enterprises: vec![e],
        table: Table::default(),
        stop: None,
        orders: Default::default(),
    }
}

/// What marks a call as the enterprise's: its id, its customers' ids (the platform's and the
/// directory's) and its asset numbers.
fn keys_of<'a>(page: &'a Page, mine: &[&'a DirectoryEntry]) -> Keys<'a> {
    let mut keys = Keys {
        global_id: &page.global_id,
        ..Keys::default()
    };
    for c in &page.customers {
        keys.customer_ids.insert(&c.customer_id);
        keys.channel_customer_ids.insert(&c.channel_customer_id);
    }
    for a in &page.assets {
        keys.customer_ids.insert(&a.customer_id);
        keys.assets.insert(&a.asset_num);
    }
    for e in mine {
        keys.customer_ids.extend(e.customer_id.as_deref());
        keys.channel_customer_ids
            .extend(e.channel_customer_id.as_deref());
        keys.crm_customer_ids.extend(e.crm_customer_id.as_deref());
    }
    keys.customer_ids.remove("");
    keys.channel_customer_ids.remove("");
    keys
}
