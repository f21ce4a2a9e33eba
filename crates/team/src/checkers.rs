//! The threads that verify passwords: a fixed few, started with the server, fed one check at a
//! time, each verifying in one buffer of its own that it keeps. Argon2 takes 19 MiB a check;
//! allocated anew for each, the allocator kept ~450 MiB fragmented after a few dozen sign-ins
//! (measured: scripts/sign-in-memory.sh). These threads keep the server's memory at about
//! their count × 19 MiB, whatever arrives.

use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use tokio::sync::oneshot;

use crate::password;

type Job = (String, Option<String>, oneshot::Sender<bool>);

pub struct Checkers {
    jobs: SyncSender<Job>,
}

impl Checkers {
    /// `threads` threads (at least one); checks wait in a queue as long as the threads' count.
    pub fn start(threads: usize) -> Checkers {
        let threads = threads.max(1);
        let (jobs, queue) = sync_channel::<Job>(threads);
        let queue = Arc::new(Mutex::new(queue));
        for i in 0..threads {
            let queue = Arc::clone(&queue);
            let spawned = std::thread::Builder::new()
                .name(format!("password-check-{i}"))
                .spawn(move || work(&queue));
            if let Err(e) = spawned {
                tracing::error!(error = %e, "cannot start a password-check thread");
            }
        }
        Checkers { jobs }
    }

    /// Whether `password` is the one `stored` was made from. Without a stored hash a dummy
    /// one is verified, so that an unknown name takes as long as a known one.
    pub async fn verify(&self, password: String, stored: Option<String>) -> bool {
        let (done, answer) = oneshot::channel();
        let jobs = self.jobs.clone();
        // The queue is bounded: waiting for room blocks, so off the runtime's threads.
        let queued =
            tokio::task::spawn_blocking(move || jobs.send((password, stored, done)).is_ok()).await;
        if !matches!(queued, Ok(true)) {
            return false;
        }
        answer.await.unwrap_or(false)
    }
}

fn work(queue: &Mutex<Receiver<Job>>) {
    let mut memory = Vec::new();
    loop {
        let job = queue.lock().unwrap_or_else(PoisonError::into_inner).recv();
        let Ok((pw, stored, done)) = job else {
            return;
        };
        let matches = match stored {
            Some(hash) => password::verify_in(&pw, &hash, &mut memory),
            None => {
                password::verify_in(&pw, dummy_hash(), &mut memory);
                false
            }
        };
        // The asker may have gone (its connection closed): nothing to tell.
        let _ = done.send(matches);
    }
}

fn dummy_hash() -> &'static str {
    static DUMMY: OnceLock<String> = OnceLock::new();
    DUMMY.get_or_init(|| password::hash("no one has this password").unwrap_or_default())
}
