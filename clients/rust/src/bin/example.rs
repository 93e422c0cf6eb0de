//! The client example: deals a match through `GameService`, plays it to the end
//! with random legal moves (one `ApplyMove` per move, never a Maraffa claim),
//! then asks for the score.

use std::time::Duration;

use mazzo_client::pb::{ApplyMoveRequest, DealRequest, GameOptions, ScoreRequest};
use mazzo_client::{game_service, parse_args, parse_opt, random_move, FILE_DESCRIPTOR_SET};
use prost_reflect::{DescriptorPool, DynamicMessage};

const USAGE: &str =
    "example --target HOST:PORT [--game maraffa] [--players N] [--seed N] [--options JSON]";
/// A guard against a server that never ends a match.
const MAX_MOVES: u64 = 1_000_000;

#[tokio::main(flavor = "current_thread")]
async fn main() {
    if let Err(e) = run().await {
        eprintln!("example: {}", mazzo_client::error_chain(e.as_ref()));
        std::process::exit(1);
    }
}

async fn run() -> Result<(), Box<dyn std::error::Error>> {
    let args = parse_args(&["target", "game", "players", "seed", "options"], USAGE)?;
    let target = args
        .get("target")
        .ok_or(format!("--target is required\nusage: {USAGE}"))?;
    let game = args
        .get("game")
        .cloned()
        .unwrap_or_else(|| "maraffa".into());
    // 0 asks for the game's default number of players.
    let players: u32 = parse_opt(&args, "players")?.unwrap_or(0);
    let seed: u64 = parse_opt(&args, "seed")?.unwrap_or_else(|| fastrand::u64(..));
    let mut rng = fastrand::Rng::with_seed(seed);
    let options = args.get("options").map(|json| {
        parse_options(json).unwrap_or_else(|e| {
            eprintln!("example: --options: {e}");
            std::process::exit(2);
        })
    });

    // Every call retries UNAVAILABLE as clients/service-config.json says.
    let (client, retry) = game_service(target, Some(Duration::from_secs(30)))?;

    let request = DealRequest {
        game: game.clone(),
        options,
        players,
        seed,
        // Fields added to the contract later keep their defaults.
        ..Default::default()
    };
    let deal = retry
        .call(|| {
            let (mut client, request) = (client.clone(), request.clone());
            async move { client.deal(request).await }
        })
        .await?
        .into_inner();
    let mut state = deal.state.ok_or("Deal returned no state")?;
    let mut legal = deal.legal_moves;
    eprintln!(
        "example: dealt {game} with seed {seed}, {} players",
        state.players
    );

    let mut moves: u64 = 0;
    while !state.finished && !legal.is_empty() {
        if moves >= MAX_MOVES {
            return Err(format!("match not over after {MAX_MOVES} moves").into());
        }
        let index = random_move(&legal, &mut rng).ok_or("no legal move")?;
        let mv = legal.swap_remove(index);
        let request = ApplyMoveRequest {
            state: Some(state),
            r#move: Some(mv),
            ..Default::default()
        };
        let applied = retry
            .call(|| {
                let (mut client, request) = (client.clone(), request.clone());
                async move { client.apply_move(request).await }
            })
            .await?
            .into_inner();
        state = applied.state.ok_or("ApplyMove returned no state")?;
        legal = applied.legal_moves;
        moves += 1;
    }

    let players = state.players;
    let request = ScoreRequest {
        state: Some(state),
        ..Default::default()
    };
    let score = retry
        .call(|| {
            let (mut client, request) = (client.clone(), request.clone());
            async move { client.score(request).await }
        })
        .await?
        .into_inner();
    if !score.finished {
        return Err("the match ended without a finished score".into());
    }
    let winners: Vec<String> = score.winners.iter().map(u32::to_string).collect();
    println!(
        "finished {game} players={players} moves={moves} winners={}",
        winners.join(",")
    );
    Ok(())
}

/// The `--options` flag: the deal's `GameOptions` in proto3 JSON, read through the
/// descriptor set (unknown fields rejected), then transcoded to the prost type.
fn parse_options(json: &str) -> Result<GameOptions, Box<dyn std::error::Error>> {
    let pool = DescriptorPool::decode(FILE_DESCRIPTOR_SET)?;
    let desc = pool
        .get_message_by_name("mazzo.v1.GameOptions")
        .ok_or("no message mazzo.v1.GameOptions")?;
    let mut de = serde_json::Deserializer::from_str(json);
    let dynamic = DynamicMessage::deserialize(desc, &mut de)?;
    de.end()?;
    Ok(dynamic.transcode_to()?)
}
