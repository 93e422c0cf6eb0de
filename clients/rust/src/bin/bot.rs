//! The starter bot: a `mazzo.v1.Bot` gRPC server that answers `Act` with a random
//! legal move, or with `--connect` a bot that dials in to a referee's gateway
//! (`mazzo.v1.Tables/Join`). Put a real strategy in [`choose`]: it decides either way.

use std::sync::Mutex;

use mazzo_client::pb::bot_server::Bot;
use mazzo_client::pb::{act_response, ActRequest, ActResponse};
use mazzo_client::{dial_in, parse_args, parse_opt, random_move, serve_bot, DialError};
use tonic::{Request, Response, Status};

const USAGE: &str = "bot [--host H] [--port P] [--seed N]
       bot --connect HOST:PORT --token T [--name NAME] [--seed N]   (dial in to a referee's gateway)";

/// The strategy: given what this seat may know (`req.view`) and the legal moves,
/// return an index into `req.legal_moves`. The starter picks at random, avoiding
/// Maraffa claims and, when it can, signals.
fn choose(req: &ActRequest, rng: &mut fastrand::Rng) -> Option<usize> {
    random_move(&req.legal_moves, rng)
}

struct StarterBot {
    rng: Mutex<fastrand::Rng>,
}

#[tonic::async_trait]
impl Bot for StarterBot {
    async fn act(&self, request: Request<ActRequest>) -> Result<Response<ActResponse>, Status> {
        let req = request.into_inner();
        let mut rng = self
            .rng
            .lock()
            .map_err(|_| Status::internal("rng poisoned"))?;
        let index = choose(&req, &mut rng)
            .ok_or_else(|| Status::invalid_argument("no legal move to choose from"))?;
        Ok(Response::new(ActResponse {
            choice: Some(act_response::Choice::Index(index as u32)),
        }))
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    if let Err(e) = run().await {
        eprintln!("bot: {}", mazzo_client::error_chain(e.as_ref()));
        // 1: no gateway answered; 2: a bad command line or target, or a refusal for good.
        let unreachable = matches!(e.downcast_ref(), Some(DialError::Unreachable(_)));
        std::process::exit(if unreachable { 1 } else { 2 });
    }
}

async fn run() -> Result<(), Box<dyn std::error::Error>> {
    let args = parse_args(&["host", "port", "seed", "connect", "token", "name"], USAGE)?;
    let host = args
        .get("host")
        .cloned()
        .unwrap_or_else(|| "127.0.0.1".into());
    let port: u16 = parse_opt(&args, "port")?.unwrap_or(50061);
    let seed: u64 = parse_opt(&args, "seed")?.unwrap_or_else(|| fastrand::u64(..));
    eprintln!("bot: seed {seed}");
    if let Some(target) = args.get("connect") {
        let token = args
            .get("token")
            .filter(|t| !t.is_empty())
            .ok_or_else(|| format!("--connect needs --token\nusage: {USAGE}"))?;
        let name = args.get("name").map_or("", String::as_str);
        let mut rng = fastrand::Rng::with_seed(seed);
        let retry_for = std::time::Duration::from_secs(30);
        dial_in("bot", target, token, name, retry_for, |req| {
            choose(req, &mut rng)
        })
        .await?;
        return Ok(());
    }

    let bot = StarterBot {
        rng: Mutex::new(fastrand::Rng::with_seed(seed)),
    };
    serve_bot("bot", bot, &host, port).await
}
