//! Local accounts' passwords: Argon2id with the `argon2` crate's default parameters (m = 19 MiB,
//! t = 2, p = 1, OWASP's recommendation), stored as a PHC string with its own salt and
//! parameters, so that stronger parameters later still verify the hashes made now.

use argon2::Argon2;
use argon2::password_hash::phc::PasswordHash;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};

use crate::error::TeamError;

/// Fewest characters of a password: NIST SP 800-63B asks 15 of a password that is the only
/// factor; branch PCs are shared and typed on all day, so 12, with no rules of composition
/// (which NIST advises against), and never the person's own name.
pub const MIN_CHARS: usize = 12;

/// Most bytes: Argon2 takes any length, but a megabyte pasted by mistake is refused.
pub const MAX_BYTES: usize = 1024;

/// Whether `password` may be set for `name`; the reason in words if not.
pub fn check_policy(name: &str, password: &str) -> Result<(), TeamError> {
    let chars = password.chars().count();
    let refuse = |why: String| Err(TeamError::Invalid(format!("password: {why}")));
    if chars < MIN_CHARS {
        return refuse(format!(
            "{chars} characters; at least {MIN_CHARS} are needed"
        ));
    }
    if password.len() > MAX_BYTES {
        return refuse(format!("longer than {MAX_BYTES} bytes"));
    }
    if password
        .trim()
        .to_lowercase()
        .contains(&name.to_lowercase())
    {
        return refuse("it contains the sign-in name".to_owned());
    }
    Ok(())
}

/// The PHC string of `password`, with a fresh random salt.
pub fn hash(password: &str) -> Result<String, TeamError> {
    Argon2::default()
        .hash_password(password.as_bytes())
        .map(|h| h.to_string())
        .map_err(|e| TeamError::Hash(e.to_string()))
}

/// [`verify`] in `memory`, a buffer the caller keeps from one check to the next (grown to the
/// hash's parameters when needed): the server's few checking threads each hold one, instead of
/// allocating 19 MiB a check, which the allocator keeps fragmented long after.
pub fn verify_in(password: &str, stored: &str, memory: &mut Vec<argon2::Block>) -> bool {
    let Ok(hash) = PasswordHash::new(stored) else {
        return false;
    };
    let (Some(salt), Some(expected)) = (&hash.salt, &hash.hash) else {
        return false;
    };
    let Ok(params) = argon2::Params::try_from(&hash) else {
        return false;
    };
    let Ok(algorithm) = argon2::Algorithm::try_from(hash.algorithm.as_str()) else {
        return false;
    };
    let version = match hash.version.map(argon2::Version::try_from).transpose() {
        Ok(v) => v.unwrap_or_default(),
        Err(_) => return false,
    };
    if memory.len() < params.block_count() {
        memory.resize(params.block_count(), argon2::Block::default());
    }
    let blocks = params.block_count();
    let expected = expected.as_bytes();
    let mut out = vec![0u8; expected.len()];
    let argon = Argon2::new(algorithm, version, params);
    let done = argon.hash_password_into_with_memory(
        password.as_bytes(),
        salt.as_ref(),
        &mut out,
        &mut memory[..blocks],
    );
    // Compared in constant time: every byte, whatever the first difference.
    done.is_ok() && out.iter().zip(expected).fold(0u8, |d, (a, b)| d | (a ^ b)) == 0
}

/// Whether `password` is the one `stored` was made from. A stored string that does not parse
/// verifies nothing.
pub fn verify(password: &str, stored: &str) -> bool {
    PasswordHash::new(stored).is_ok_and(|h| {
        Argon2::default()
            .verify_password(password.as_bytes(), &h)
            .is_ok()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hash_verifies_its_password_and_no_other() {
        let stored = hash("correct horse battery").expect("hash");
        assert!(
            stored.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"),
            "{stored}"
        );
        assert!(verify("correct horse battery", &stored));
        assert!(!verify("correct horse batterY", &stored));
        assert!(!verify("correct horse battery", "not a hash"));
        let mut memory = Vec::new();
        assert!(verify_in("correct horse battery", &stored, &mut memory));
        assert!(!verify_in("correct horse batterY", &stored, &mut memory));
        assert!(
            verify_in("correct horse battery", &stored, &mut memory),
            "reused"
        );
        assert_eq!(memory.len(), 19456, "one buffer of m = 19 MiB");
        assert_ne!(
            hash("correct horse battery").expect("hash"),
            stored,
            "salted"
        );
    }

    #[test]
    fn the_policy_says_what_is_wrong() {
        let said = |name, pw| check_policy(name, pw).map_err(|e| e.to_string());
        assert_eq!(
            said("li", "短密码123"),
            Err("password: 6 characters; at least 12 are needed".to_owned())
        );
        assert_eq!(
            said("zhangsan", "my name is ZhangSan!"),
            Err("password: it contains the sign-in name".to_owned())
        );
        assert_eq!(said("zhangsan", "长城长城长城长城长城长城"), Ok(()));
    }
}
