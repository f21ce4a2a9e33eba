//! `profile add NAME --team URL --user NAME`, `profile sign-in` and `profile sign-out`: a team
//! server's profile on the command line (docs/team.md). The password is read once, from
//! standard input or a hidden prompt; only the session is kept, in the keyring.

use std::time::Duration;

use license_desk::core::profiles::requests;
use license_desk::core::team::{self, Me};
use license_desk::core::{ApiError, Core, CoreError, Endpoint, Profile};
use serde::Serialize;

use crate::cli::output::{self, Failure};
use crate::cli::secret_input;

/// Who signed in, as printed.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SignedIn<'a> {
    profile: &'a str,
    #[serde(flatten)]
    me: &'a Me,
}

/// Saves the profile (checked by `profile add`) and signs in; a profile whose sign-in fails
/// is not kept (a typing mistake to redo), and the refusal is said.
pub fn add(core: &Core, profile: Profile) -> Result<String, Failure> {
    let name = profile.name.clone();
    run(
        core,
        requests::Save {
            previous: None,
            profile,
            app_secret: None,
        },
    )?;
    match sign_in(core, &name) {
        Ok(text) => Ok(text),
        Err(failure) => {
            run(core, requests::Remove { name })?;
            Err(failure)
        }
    }
}

/// Signs the profile's person in with a password read now; prints who they are.
pub fn sign_in(core: &Core, name: &str) -> Result<String, Failure> {
    let Some(Endpoint::Team { url, user, .. }) =
        core.state().profiles.get(name).map(|p| p.endpoint.clone())
    else {
        return Err(not_team(name));
    };
    let password = secret_input::password(&user, &url)?;
    let request = team::SignIn {
        profile: name.to_owned(),
        password,
    };
    let me = match core.run(request, Duration::from_secs(60)) {
        // The server's refusal as it is (a wrong password is not "sign in again").
        Err(CoreError::Api(ApiError::Platform {
            code,
            message,
            cause,
            ..
        })) => Err(Failure::Refused {
            code,
            message,
            cause,
        }),
        other => other.map_err(Failure::from),
    }?;
    warn_without_keyring(core, name);
    output::json_text(&SignedIn {
        profile: name,
        me: &me,
    })
    .map_err(Failure::failed)
}

/// Ends the session on the server and forgets it.
pub fn sign_out(core: &Core, name: &str) -> Result<String, Failure> {
    if !core
        .state()
        .profiles
        .get(name)
        .is_some_and(Profile::is_team)
    {
        return Err(not_team(name));
    }
    run(
        core,
        team::SignOut {
            profile: name.to_owned(),
        },
    )?;
    Ok(String::new())
}

fn warn_without_keyring(core: &Core, name: &str) {
    if !core
        .state()
        .keyring
        .as_ref()
        .is_some_and(|k| k.is_available())
    {
        eprintln!(
            "warning: no keyring: the session was kept for this run only; give each run the password with {} or --secret-file FILE",
            secret_input::env_name(name)
        );
    }
}

fn not_team(name: &str) -> Failure {
    Failure::failed(format!("{name:?} is not a team server's profile"))
}

fn run<R: license_desk::core::Request>(core: &Core, request: R) -> Result<R::Reply, Failure> {
    Ok(core.run(request, Duration::from_secs(60))?)
}
