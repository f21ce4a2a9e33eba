//! `license-desk profile`: the profiles of the Settings screen from the command line, through
//! the console's core (the same file, the same keyring entries, the same rules).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, Subcommand};
use license_desk::core::profiles::{self, requests, requests::Connected};
use license_desk::core::{CallLimits, Core, CoreOptions, Endpoint, Profile, Request, Secret};
use serde::Serialize;

use crate::cli::call::{RunSecret, open_core};
use crate::cli::output::{self, Failure, Format, NEEDS_YES};
use crate::cli::profile_list::listing;
use crate::cli::{profile_team, secret_input};

#[derive(Subcommand)]
pub enum ProfileCommand {
    /// Add a remote profile. Its app secret is read from standard input when something is
    /// piped in, else asked for at a hidden prompt; never given as an argument. With --team
    /// URL --user NAME, a team server's profile: the person's password is read the same way,
    /// once, and only the session is kept.
    Add {
        name: String,
        #[command(flatten)]
        fields: Fields,
        /// Store no secret: each run gives it (LICENSE_DESK_SECRET_<PROFILE> or --secret-file).
        #[arg(long, conflicts_with = "check")]
        no_secret: bool,
        /// Get a token with the new profile before keeping it: printed with the profile; if the
        /// platform refuses, the profile is not kept.
        #[arg(long)]
        check: bool,
    },
    /// Change the given fields of a profile; the others stay. The app secret changes only
    /// with --secret-stdin or --secret-prompt.
    Edit {
        name: String,
        /// A new name.
        #[arg(long)]
        rename: Option<String>,
        #[command(flatten)]
        fields: Fields,
        /// Read a new app secret from standard input (which must not be a terminal).
        #[arg(long, conflicts_with = "secret_prompt")]
        secret_stdin: bool,
        /// Ask for a new app secret at a hidden prompt on the terminal.
        #[arg(long)]
        secret_prompt: bool,
    },
    /// Remove a profile and its secrets in the keyring (not the Sandbox). A production profile
    /// only with --yes.
    Remove {
        name: String,
        #[arg(long)]
        yes: bool,
    },
    /// The profiles, the active one marked.
    List {
        #[arg(long, value_enum, default_value_t = Format::Json)]
        format: Format,
    },
    /// Make a profile the active one (for the window and for commands without --profile).
    Use { name: String },
    /// Sign in to a team server's profile again (its session ended): the password is read
    /// from standard input when something is piped in, else at a hidden prompt.
    SignIn { name: String },
    /// End a team server's session and forget it.
    SignOut { name: String },
    /// Get a token from the profile's platform now and print its scopes and expiry; for a
    /// team server, who is signed in and their permissions.
    Test {
        /// The profile [default: the active one]
        name: Option<String>,
        #[command(flatten)]
        secret: RunSecret,
        #[arg(long, value_enum, default_value_t = Format::Json)]
        format: Format,
    },
}

/// The Settings form's fields; on `edit`, only those given change.
#[derive(Args)]
pub struct Fields {
    /// The platform's address, e.g. https://platform.example.com.
    #[arg(long, conflicts_with = "team")]
    base_url: Option<String>,
    /// A team server's address (`license-desk team serve`): calls go through it as --user.
    #[arg(long, value_name = "URL", conflicts_with_all = ["token_url", "app_key", "recognises_repeats"])]
    team: Option<String>,
    /// The person's sign-in name on the team server.
    #[arg(long, value_name = "NAME")]
    user: Option<String>,
    /// The token endpoint [default: BASE_URL/v3/api/oauth2/token].
    #[arg(long)]
    token_url: Option<String>,
    /// The application's key (ak_…).
    #[arg(long)]
    app_key: Option<String>,
    /// Who locks and unlocks: a name, mobile number or e-mail.
    #[arg(long)]
    operator: Option<String>,
    /// A production platform: destructive calls there need --yes. `--production=false` to
    /// clear it.
    #[arg(long, num_args = 0..=1, default_missing_value = "true", value_name = "BOOL")]
    production: Option<bool>,
    /// A catalog of its own, not shared with the other profiles. `--own-catalog=false` to
    /// share the common one again (its own is kept for later).
    #[arg(long, num_args = 0..=1, default_missing_value = "true", value_name = "BOOL")]
    own_catalog: Option<bool>,
    /// The platform answers a repeated channelOrderId with its first answer and creates
    /// nothing twice (as `license-desk serve` does): a batch whose answer was lost is then sent
    /// again by itself. Off by default: the interface does not promise it, and on a platform
    /// that does not, a batch sent again grants its licenses twice.
    #[arg(long, num_args = 0..=1, default_missing_value = "true", value_name = "BOOL")]
    recognises_repeats: Option<bool>,
    /// Allow plain http:// to a host other than this machine: the app secret and the tokens then
    /// cross the network in clear. Without it such a profile sends nothing. `=false` to clear.
    #[arg(long, num_args = 0..=1, default_missing_value = "true", value_name = "BOOL")]
    insecure_http: Option<bool>,
    /// Seconds to make a connection [default: 10].
    #[arg(long, value_name = "SECS", value_parser = clap::value_parser!(u32).range(1..))]
    connect_secs: Option<u32>,
    /// Seconds one attempt of a call may wait for its answer [default: 30].
    #[arg(long, value_name = "SECS", value_parser = clap::value_parser!(u32).range(1..))]
    attempt_secs: Option<u32>,
    /// Seconds one attempt of a batch order may wait for its answer [default: 120].
    #[arg(long, value_name = "SECS", value_parser = clap::value_parser!(u32).range(1..))]
    batch_attempt_secs: Option<u32>,
    /// Further attempts where one is safe [default: 3].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(0..=10))]
    retries: Option<u32>,
    /// A CA certificate (PEM) to trust besides the system's, for a platform whose certificate
    /// it signed. Certificates are always verified.
    #[arg(long, value_name = "FILE", conflicts_with = "no_ca_file")]
    ca_file: Option<PathBuf>,
    /// Trust the system's CAs only again (`edit`).
    #[arg(long)]
    no_ca_file: bool,
}

impl Fields {
    /// The limits given, over `old`.
    fn limits(&self, old: CallLimits) -> CallLimits {
        CallLimits {
            connect_secs: self.connect_secs.unwrap_or(old.connect_secs),
            attempt_secs: self.attempt_secs.unwrap_or(old.attempt_secs),
            batch_attempt_secs: self.batch_attempt_secs.unwrap_or(old.batch_attempt_secs),
            retries: self.retries.unwrap_or(old.retries),
        }
    }

    /// The CA file given, made absolute so that it means the same file from any folder.
    fn ca_file(&self) -> Result<Option<PathBuf>, Failure> {
        self.ca_file
            .as_deref()
            .map(|p| {
                std::path::absolute(p)
                    .map_err(|e| Failure::failed(format!("--ca-file {}: {e}", p.display())))
            })
            .transpose()
    }
}

pub fn run(command: ProfileCommand) -> ExitCode {
    match execute(command) {
        Ok(text) => {
            if !text.is_empty() {
                output::print(&text);
            }
            ExitCode::SUCCESS
        }
        Err(failure) => failure.report(),
    }
}

fn execute(command: ProfileCommand) -> Result<String, Failure> {
    if let ProfileCommand::Test {
        name,
        secret,
        format,
    } = command
    {
        return test(name, secret.secret_file, format);
    }
    let core = Core::start(CoreOptions::for_user()?)?;
    let result = on_core(&core, command);
    core.shutdown();
    result
}

fn on_core(core: &Core, command: ProfileCommand) -> Result<String, Failure> {
    match command {
        ProfileCommand::Add {
            name,
            fields,
            no_secret,
            check,
        } => add(core, name, &fields, no_secret, check),
        ProfileCommand::Edit {
            name,
            rename,
            fields,
            secret_stdin,
            secret_prompt,
        } => {
            let secret = if secret_stdin {
                Some(secret_input::from_stdin()?)
            } else if secret_prompt {
                Some(secret_input::prompt(&name)?)
            } else {
                None
            };
            edit(core, &name, rename, &fields, secret)
        }
        ProfileCommand::Remove { name, yes } => remove(core, &name, yes),
        ProfileCommand::List { format } => {
            let listed = listing(&core.state().profiles);
            output::render(output::json_text(&listed)?, format).map_err(Failure::failed)
        }
        ProfileCommand::SignIn { name } => profile_team::sign_in(core, &name),
        ProfileCommand::SignOut { name } => profile_team::sign_out(core, &name),
        ProfileCommand::Use { name } => {
            run_on(core, requests::Activate { name })?;
            Ok(String::new())
        }
        ProfileCommand::Test { name, .. } => Err(Failure::failed(format!(
            "`profile test` runs on a core of its own, not here ({name:?})"
        ))),
    }
}

/// Runs one request and answers its reply.
fn run_on<R: Request>(core: &Core, request: R) -> Result<R::Reply, Failure> {
    Ok(core.run(request, Duration::from_secs(60))?)
}

fn add(
    core: &Core,
    name: String,
    fields: &Fields,
    no_secret: bool,
    check: bool,
) -> Result<String, Failure> {
    if let Some(url) = &fields.team {
        return add_team(core, name, fields, url);
    }
    let (Some(base_url), Some(app_key)) = (&fields.base_url, &fields.app_key) else {
        return Err(Failure::Exit(
            output::USAGE,
            "a profile needs --base-url and --app-key (or --team URL and --user NAME)".to_owned(),
        ));
    };
    let base_url = profiles::base_url_of(base_url);
    let profile = Profile {
        name: name.trim().to_owned(),
        endpoint: Endpoint::Remote {
            token_url: profiles::token_url_of(fields.token_url.as_deref(), &base_url),
            base_url,
            app_key: app_key.trim().to_owned(),
            ca_file: fields.ca_file()?,
        },
        operator_identity: fields.operator.as_deref().unwrap_or("").trim().to_owned(),
        production: fields.production.unwrap_or(false),
        own_catalog: fields.own_catalog.unwrap_or(false),
        repeats_recognised: fields.recognises_repeats.unwrap_or(false),
        limits: fields.limits(CallLimits::default()),
        insecure_http: fields.insecure_http.unwrap_or(false),
    };
    // Checked before the secret is asked for: nobody types a secret for a refused profile.
    refuse_new(core, &profile)?;
    let secret = if no_secret {
        None
    } else {
        Some(secret_input::ask(&profile.name)?)
    };
    let name = profile.name.clone();
    let saved = save(core, None, profile, secret)?;
    if !check {
        return Ok(saved);
    }
    match connect(core, &name) {
        Ok(tested) => Ok(format!("{saved}\n{}", output::json_text(&tested)?)),
        Err(failure) => {
            // Not kept: a profile that cannot get a token is a typing mistake to redo.
            run_on(core, requests::Remove { name })?;
            Err(failure)
        }
    }
}

fn add_team(core: &Core, name: String, fields: &Fields, url: &str) -> Result<String, Failure> {
    let Some(user) = &fields.user else {
        return Err(Failure::Exit(
            output::USAGE,
            "a team server's profile needs --user NAME (the person's sign-in name)".to_owned(),
        ));
    };
    let profile = Profile {
        name: name.trim().to_owned(),
        endpoint: Endpoint::Team {
            url: profiles::base_url_of(url),
            user: user.trim().to_owned(),
            ca_file: fields.ca_file()?,
        },
        // The server names the person as the operator of their lock changes.
        operator_identity: String::new(),
        production: fields.production.unwrap_or(false),
        own_catalog: fields.own_catalog.unwrap_or(false),
        repeats_recognised: false,
        limits: fields.limits(CallLimits::default()),
        insecure_http: fields.insecure_http.unwrap_or(false),
    };
    // Checked before the password is asked for.
    refuse_new(core, &profile)?;
    profile_team::add(core, profile)
}

fn edit(
    core: &Core,
    name: &str,
    rename: Option<String>,
    fields: &Fields,
    secret: Option<Secret>,
) -> Result<String, Failure> {
    let Some(old) = core.state().profiles.get(name).cloned() else {
        return Err(Failure::failed(format!("no profile named {name:?}")));
    };
    let changed = changed(&old, rename, fields, secret.is_some())?;
    save(core, Some(old.name), changed, secret)
}

/// The profile with the given fields changed. The Sandbox's address, key and secret are the
/// embedded platform's own; only its operator changes.
fn changed(
    old: &Profile,
    rename: Option<String>,
    fields: &Fields,
    new_secret: bool,
) -> Result<Profile, Failure> {
    let mut profile = old.clone();
    if let Some(operator) = &fields.operator {
        profile.operator_identity = operator.trim().to_owned();
    }
    if let Some(own) = fields.own_catalog {
        profile.own_catalog = own;
    }
    if let Some(repeats) = fields.recognises_repeats {
        profile.repeats_recognised = repeats;
    }
    profile.limits = fields.limits(profile.limits);
    if let Some(insecure) = fields.insecure_http {
        profile.insecure_http = insecure;
    }
    if old.is_sandbox() {
        let remote_only = fields.base_url.is_some()
            || fields.token_url.is_some()
            || fields.app_key.is_some()
            || fields.production.is_some()
            || fields.recognises_repeats.is_some()
            || fields.insecure_http.is_some()
            || fields.ca_file.is_some()
            || fields.no_ca_file
            || fields.team.is_some()
            || fields.user.is_some()
            || rename.is_some()
            || new_secret;
        if remote_only {
            return Err(Failure::failed(
                "the Sandbox is the embedded platform: only its --operator and --own-catalog can change",
            ));
        }
        return Ok(profile);
    }
    if let Some(new_name) = rename {
        profile.name = new_name.trim().to_owned();
    }
    if let Some(production) = fields.production {
        profile.production = production;
    }
    changed_endpoint(&mut profile.endpoint, fields)?;
    refuse_problems(&profile)?;
    Ok(profile)
}

/// The address, key or person given, over a remote or team profile's.
fn changed_endpoint(endpoint: &mut Endpoint, fields: &Fields) -> Result<(), Failure> {
    let ca = match endpoint {
        Endpoint::Sandbox => return Ok(()),
        Endpoint::Team { url, user, ca_file } => {
            if fields.base_url.is_some() || fields.token_url.is_some() || fields.app_key.is_some() {
                return Err(Failure::failed(
                    "a team server's profile has --team URL and --user NAME, not a platform's address or app key",
                ));
            }
            if let Some(given) = &fields.team {
                *url = profiles::base_url_of(given);
            }
            if let Some(given) = &fields.user {
                *user = given.trim().to_owned();
            }
            ca_file
        }
        Endpoint::Remote {
            base_url,
            token_url,
            app_key,
            ca_file,
        } => {
            if fields.team.is_some() || fields.user.is_some() {
                return Err(Failure::failed(
                    "a platform's profile has an address and an app key; a team server's is added with `profile add --team URL --user NAME`",
                ));
            }
            if let Some(given) = &fields.base_url {
                let new_base = profiles::base_url_of(given);
                // A token URL that was the usual one follows the address.
                if *token_url == profiles::usual_token_url(base_url) && fields.token_url.is_none() {
                    *token_url = profiles::usual_token_url(&new_base);
                }
                *base_url = new_base;
            }
            if let Some(given) = &fields.token_url {
                *token_url = profiles::token_url_of(Some(given), base_url);
            }
            if let Some(given) = &fields.app_key {
                *app_key = given.trim().to_owned();
            }
            ca_file
        }
    };
    if fields.no_ca_file {
        *ca = None;
    }
    if let Some(given) = fields.ca_file()? {
        *ca = Some(given);
    }
    Ok(())
}

/// Saves through the core as the Settings screen does (the secret straight to the keyring),
/// and says where the secret went.
fn save(
    core: &Core,
    previous: Option<String>,
    profile: Profile,
    secret: Option<Secret>,
) -> Result<String, Failure> {
    let keyring = core.state().keyring;
    let had_secret = secret.is_some();
    let name = profile.name.clone();
    let production_on_http = profile.production
        && matches!(&profile.endpoint, Endpoint::Remote { base_url, .. } if base_url.starts_with("http://"));
    let profiles = run_on(
        core,
        requests::Save {
            previous,
            profile,
            app_secret: secret,
        },
    )?;
    if production_on_http {
        eprintln!(
            "warning: a production platform on plain http://: the token and every answer cross the network unencrypted"
        );
    }
    if had_secret && !keyring.as_ref().is_some_and(|k| k.is_available()) {
        eprintln!(
            "warning: no keyring: the app secret was kept for this run only; give it to each run with {} or --secret-file FILE",
            secret_input::env_name(&name)
        );
    }
    let entry = listing(&profiles).into_iter().find(|p| p.name == name);
    output::json_text(&entry).map_err(Failure::failed)
}

fn remove(core: &Core, name: &str, yes: bool) -> Result<String, Failure> {
    let profile = core.state().profiles.get(name).cloned();
    let refusal = match &profile {
        None => Some(Failure::failed(format!("no profile named {name:?}"))),
        Some(p) if p.is_sandbox() => Some(Failure::failed(
            "the Sandbox is built in and cannot be removed (it is the embedded platform)",
        )),
        Some(p) if p.production && !yes => Some(Failure::Exit(
            NEEDS_YES,
            format!(
                "{name:?} is a production profile: it and its secret are removed only with --yes"
            ),
        )),
        Some(_) => None,
    };
    if let Some(refusal) = refusal {
        return Err(refusal);
    }
    run_on(
        core,
        requests::Remove {
            name: name.to_owned(),
        },
    )?;
    Ok(String::new())
}

fn test(
    name: Option<String>,
    secret_file: Option<PathBuf>,
    format: Format,
) -> Result<String, Failure> {
    let (core, chosen) = open_core(name, secret_file.as_deref())?;
    let tested = connect(&core, &chosen.name);
    core.shutdown();
    output::render(output::json_text(&tested?)?, format).map_err(Failure::failed)
}

/// Gets a token for the profile now (not a cached one) and tells its scopes and expiry.
fn connect(core: &Core, profile: &str) -> Result<Tested, Failure> {
    let Connected {
        scope,
        expires_at_ms,
    } = run_on(
        core,
        requests::TestConnection {
            profile: profile.to_owned(),
        },
    )?;
    let expires = jiff::Timestamp::from_millisecond(expires_at_ms)
        .map(|t| t.to_string())
        .unwrap_or_default();
    Ok(Tested {
        profile: profile.to_owned(),
        // OAuth separates scopes with spaces; a platform that uses commas is read alike.
        scopes: scope
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .collect(),
        expires_at: expires_at_ms,
        expires,
    })
}

/// `profile test`'s answer.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Tested {
    profile: String,
    /// The token's scopes (`auth_order`, `auth_activity`).
    scopes: Vec<String>,
    /// Epoch milliseconds.
    expires_at: i64,
    /// The same instant in RFC 3339, UTC.
    expires: String,
}

/// A new profile's check, before anything is asked or saved: the core's rules, and a name
/// not taken.
fn refuse_new(core: &Core, profile: &Profile) -> Result<(), Failure> {
    refuse_problems(profile)?;
    if core.state().profiles.get(&profile.name).is_some() {
        return Err(Failure::failed(format!(
            "a profile named {:?} exists already: change it with `profile edit`",
            profile.name
        )));
    }
    Ok(())
}

/// The core's own check of a profile, before anything is asked or saved.
fn refuse_problems(profile: &Profile) -> Result<(), Failure> {
    let problems = profile.problems();
    if problems.is_empty() {
        return Ok(());
    }
    let listed: Vec<String> = problems.iter().map(ToString::to_string).collect();
    Err(Failure::failed(listed.join("; ")))
}
