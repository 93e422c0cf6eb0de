//! The search starter bot: a `mazzo.v1.Bot` server that plays, for each `Act`, the move
//! best for its side by one `Simulate` call from its own view (perfect-information Monte
//! Carlo); on any error or timeout, a random safe move.

use std::time::Duration;

use mazzo_client::pb::bot_server::Bot;
use mazzo_client::pb::game_service_client::GameServiceClient;
use mazzo_client::pb::{act_response, simulate_request::Position, ActRequest, ActResponse};
use mazzo_client::pb::{MoveOutcome, SimulateRequest};
use mazzo_client::RetryPolicy;
use mazzo_client::{game_service, is_claim, parse_args, parse_opt, random_move, serve_bot};
use tonic::{transport::Channel, Request, Response, Status};

const USAGE: &str =
    "searchbot [--host H] [--port P] [--service HOST:PORT] [--determinizations N] [--playouts N]";

struct SearchBot {
    service: (GameServiceClient<Channel>, RetryPolicy),
    /// Playouts and determinizations, set from the flags.
    template: SimulateRequest,
}

impl SearchBot {
    /// The move (never a claim) with the best mean score change of its side minus the
    /// other sides' mean. Simulate gets half the time left, at most 1 s.
    async fn search(&self, req: &ActRequest) -> Result<usize, String> {
        let left = req.time_left.and_then(|t| Duration::try_from(t).ok());
        let second = Duration::from_secs(1);
        let budget = left.map_or(second, |t| (t / 2).min(second));
        let sim = SimulateRequest {
            position: Some(Position::View(req.view.clone().ok_or("no view")?)),
            seed: fastrand::u64(..),
            ..self.template.clone()
        };
        let (client, retry) = &self.service;
        let call = retry.call(|| {
            let (mut client, mut request) = (client.clone(), Request::new(sim.clone()));
            request.set_timeout(budget);
            async move { client.simulate(request).await }
        });
        let resp = match tokio::time::timeout(budget, call).await {
            Ok(Ok(resp)) => resp.into_inner(),
            Ok(Err(status)) => return Err(format!("{:?}: {}", status.code(), status.message())),
            Err(_) => return Err("timed out".into()),
        };
        let (outcomes, side) = (&resp.outcomes, resp.side as usize);
        let matching = outcomes.len() == req.legal_moves.len()
            && (outcomes.iter().zip(&req.legal_moves))
                .all(|(o, m)| o.r#move.as_ref() == Some(m) && side < o.sides.len());
        if !matching {
            return Err("the outcomes are not the legal moves with this side".into());
        }
        let value = |o: &MoveOutcome| {
            let all: f64 = o.sides.iter().map(|s| s.mean_score_change).sum();
            let own = o.sides[side].mean_score_change;
            own - (all - own) / (o.sides.len() - 1).max(1) as f64
        };
        // Never a claim: its score change says nothing of the game it wins or loses.
        (0..outcomes.len())
            .filter(|&i| !is_claim(&req.legal_moves[i]))
            .max_by(|&a, &b| value(&outcomes[a]).total_cmp(&value(&outcomes[b])))
            .ok_or_else(|| "no move but a claim".into())
    }
}

#[tonic::async_trait]
impl Bot for SearchBot {
    async fn act(&self, request: Request<ActRequest>) -> Result<Response<ActResponse>, Status> {
        let req = request.into_inner();
        let index = self.search(&req).await.or_else(|why| {
            eprintln!("searchbot: seat {}: a random move instead: {why}", req.seat);
            let index = random_move(&req.legal_moves, &mut fastrand::Rng::new());
            index.ok_or_else(|| Status::invalid_argument("no legal move to choose"))
        })?;
        let choice = Some(act_response::Choice::Index(index as u32));
        Ok(Response::new(ActResponse { choice }))
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    if let Err(e) = run().await {
        eprintln!("searchbot: {}", mazzo_client::error_chain(e.as_ref()));
        std::process::exit(2);
    }
}

async fn run() -> Result<(), Box<dyn std::error::Error>> {
    let names = ["host", "port", "service", "determinizations", "playouts"];
    let args = parse_args(&names, USAGE)?;
    let flag = |name, default| args.get(name).map_or(default, String::as_str);
    let host = flag("host", "127.0.0.1");
    let target = flag("service", "127.0.0.1:50051");
    let template = SimulateRequest {
        determinizations: parse_opt(&args, "determinizations")?.unwrap_or(32),
        playouts: parse_opt(&args, "playouts")?.unwrap_or(4),
        ..Default::default()
    };
    let service = game_service(target, None)?;
    let port = parse_opt(&args, "port")?.unwrap_or(50062);
    eprintln!("searchbot: Simulate on {target}");
    serve_bot("searchbot", SearchBot { service, template }, host, port).await
}
