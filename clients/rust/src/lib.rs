//! Generated Mazzo types and the small helpers the binaries share: argument
//! parsing, move filtering, the gRPC status code names, the GameService channel
//! with the repo's service config, the bot server's life cycle, dialing in to a
//! referee's gateway ([`dial_in`]), and the check of a
//! deal's commitment ([`verify_deal_commitment`]).

/// `mazzo.v1`: messages, the `GameService` client and the `Bot` server, generated
/// at build time from `proto/mazzo/v1`.
pub mod pb {
    #![allow(clippy::all, missing_docs)]
    include!(concat!(env!("OUT_DIR"), "/mazzo.v1.rs"));
}

/// The descriptor set of `mazzo.v1` with its imports, written by `build.rs`; the
/// conformance runner reads and writes proto3 JSON through it (prost-reflect).
pub const FILE_DESCRIPTOR_SET: &[u8] =
    include_bytes!(concat!(env!("OUT_DIR"), "/mazzo_descriptor.bin"));

use pb::maraffa_move::Action;
use pb::r#move::Move as MoveKind;
use serde::Deserialize;
use std::collections::HashMap;
use std::future::Future;
use std::time::Duration;

/// `clients/service-config.json`, the gRPC service config of every GameService
/// channel, embedded at compile time from the file itself.
pub const SERVICE_CONFIG: &str = include_str!("../../service-config.json");

/// The `retryPolicy` that [`SERVICE_CONFIG`] gives `mazzo.v1.GameService`. tonic
/// does not read service configs, so [`RetryPolicy::call`] applies it as gRPC's
/// retry design (A6) says: at most `max_attempts` (capped at 5), and before attempt
/// n+1 a pause drawn uniformly from 0 to min(initial * multiplier^(n-1), max).
#[derive(Clone, Debug, PartialEq)]
pub struct RetryPolicy {
    pub max_attempts: u32,
    pub initial_backoff: Duration,
    pub max_backoff: Duration,
    pub backoff_multiplier: f64,
    pub retryable: Vec<tonic::Code>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ServiceConfig {
    #[serde(default)]
    method_config: Vec<MethodConfig>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct MethodConfig {
    #[serde(default)]
    name: Vec<MethodName>,
    retry_policy: Option<RawRetryPolicy>,
}

#[derive(Deserialize)]
struct MethodName {
    #[serde(default)]
    service: String,
    #[serde(default)]
    method: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RawRetryPolicy {
    max_attempts: u32,
    initial_backoff: String,
    max_backoff: String,
    backoff_multiplier: f64,
    retryable_status_codes: Vec<String>,
}

/// A proto3 JSON duration such as "0.05s".
fn json_duration(text: &str) -> Result<Duration, String> {
    text.strip_suffix('s')
        .and_then(|n| n.parse::<f64>().ok())
        .and_then(|secs| Duration::try_from_secs_f64(secs).ok())
        .ok_or_else(|| format!("not a duration: {text:?}"))
}

impl RetryPolicy {
    /// The policy `config` (a service config in JSON) gives every method of
    /// `service`; `None` when it gives none.
    pub fn from_config(config: &str, service: &str) -> Result<Option<Self>, String> {
        let config: ServiceConfig =
            serde_json::from_str(config).map_err(|e| format!("service config: {e}"))?;
        let Some(raw) = config
            .method_config
            .into_iter()
            .find(|m| {
                m.name
                    .iter()
                    .any(|n| n.service == service && n.method.is_empty())
            })
            .and_then(|m| m.retry_policy)
        else {
            return Ok(None);
        };
        let retryable = raw
            .retryable_status_codes
            .iter()
            .map(|name| {
                (0..=16)
                    .map(tonic::Code::from_i32)
                    .find(|c| code_name(*c) == name)
                    .ok_or_else(|| format!("service config: unknown status code {name:?}"))
            })
            .collect::<Result<_, _>>()?;
        Ok(Some(RetryPolicy {
            max_attempts: raw.max_attempts.clamp(1, 5),
            initial_backoff: json_duration(&raw.initial_backoff)?,
            max_backoff: json_duration(&raw.max_backoff)?,
            backoff_multiplier: raw.backoff_multiplier,
            retryable,
        }))
    }

    /// The policy of `mazzo.v1.GameService` in [`SERVICE_CONFIG`] (one attempt if none).
    pub fn game_service() -> Result<Self, String> {
        Ok(
            Self::from_config(SERVICE_CONFIG, "mazzo.v1.GameService")?.unwrap_or(RetryPolicy {
                max_attempts: 1,
                initial_backoff: Duration::ZERO,
                max_backoff: Duration::ZERO,
                backoff_multiplier: 1.0,
                retryable: Vec::new(),
            }),
        )
    }

    /// Calls `attempt` until it succeeds, fails with a code not retryable, or the
    /// attempts run out; returns the last outcome. Bound the whole with a timeout
    /// (`tokio::time::timeout`) where the call has a deadline.
    pub async fn call<T, F, Fut>(&self, mut attempt: F) -> Result<T, tonic::Status>
    where
        F: FnMut() -> Fut,
        Fut: Future<Output = Result<T, tonic::Status>>,
    {
        let mut ceiling = self.initial_backoff.as_secs_f64();
        let mut tries = 1;
        loop {
            match attempt().await {
                Err(status)
                    if tries < self.max_attempts && self.retryable.contains(&status.code()) =>
                {
                    let pause = fastrand::f64() * ceiling.min(self.max_backoff.as_secs_f64());
                    tokio::time::sleep(Duration::from_secs_f64(pause)).await;
                    ceiling *= self.backoff_multiplier;
                    tries += 1;
                }
                outcome => return outcome,
            }
        }
    }
}

/// A GameService client for `target` (HOST:PORT) and the retry policy to call it
/// with. It connects lazily, so an unreachable server is an UNAVAILABLE call
/// (retried), not an error here; `timeout`, if any, bounds each attempt.
pub fn game_service(
    target: &str,
    timeout: Option<Duration>,
) -> Result<
    (
        pb::game_service_client::GameServiceClient<tonic::transport::Channel>,
        RetryPolicy,
    ),
    Box<dyn std::error::Error>,
> {
    let mut endpoint = tonic::transport::Endpoint::from_shared(format!("http://{target}"))?;
    if let Some(t) = timeout {
        endpoint = endpoint.timeout(t);
    }
    let client = pb::game_service_client::GameServiceClient::new(endpoint.connect_lazy());
    Ok((client, RetryPolicy::game_service()?))
}

/// Resolves on SIGTERM or SIGINT. The handlers are installed before it is
/// returned, so a signal sent right after `LISTENING` is never lost to the
/// default action.
pub fn shutdown_signal(name: &'static str) -> std::io::Result<impl Future<Output = ()>> {
    use tokio::signal::unix::{signal, SignalKind};
    let mut term = signal(SignalKind::terminate())?;
    let mut int = signal(SignalKind::interrupt())?;
    Ok(async move {
        tokio::select! {
            _ = term.recv() => {}
            _ = int.recv() => {}
        }
        eprintln!("{name}: shutting down");
    })
}

/// Serves `bot` as `mazzo.v1.Bot` on host:port (0 picks a free port): prints
/// `LISTENING host:port` once bound, returns after SIGTERM or SIGINT.
pub async fn serve_bot<B: pb::bot_server::Bot>(
    name: &'static str,
    bot: B,
    host: &str,
    port: u16,
) -> Result<(), Box<dyn std::error::Error>> {
    use std::io::Write;
    let listener = tokio::net::TcpListener::bind((host, port)).await?;
    let addr = listener.local_addr()?;
    let incoming = tonic::transport::server::TcpIncoming::from(listener).with_nodelay(Some(true));
    let shutdown = shutdown_signal(name)?;

    let mut out = std::io::stdout().lock();
    writeln!(out, "LISTENING {}:{}", host, addr.port())?;
    out.flush()?;
    drop(out);
    eprintln!("{name}: serving mazzo.v1.Bot on {addr}");

    tonic::transport::Server::builder()
        .add_service(pb::bot_server::BotServer::new(bot))
        .serve_with_incoming_shutdown(incoming, shutdown)
        .await?;
    Ok(())
}

/// The protocol version of `mazzo.v1.Tables` that [`dial_in`] speaks.
pub const PROTOCOL_VERSION: u32 = 1;

/// Why [`dial_in`] stopped before the gateway ended the run.
#[derive(Debug)]
pub enum DialError {
    /// A refusal that dialing again cannot mend (a wrong token, a game or protocol
    /// version the gateway does not serve): the run should exit 2.
    Refused(tonic::Status),
    /// No connection within the retry time.
    Unreachable(String),
    /// A target this bot cannot dial (not an address, or `grpcs://`: no TLS here).
    BadTarget(String),
}

impl std::fmt::Display for DialError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DialError::Refused(s) => write!(f, "refused: {}: {}", code_name(s.code()), s.message()),
            DialError::Unreachable(why) | DialError::BadTarget(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for DialError {}

/// Dials the referee's gateway at `target` (`HOST:PORT`) as `mazzo.v1.Tables/Join`
/// and answers every decision with `choose` (the same function a served bot
/// decides with), until the gateway ends the stream (`Ok`). A dropped connection
/// is dialed again for at most `retry_for`, counted afresh after each drop of a
/// welcomed stream: the gateway sends the pending decision again, with the same
/// sequence number. An empty `name` plays as the token's name.
pub async fn dial_in<F>(
    prog: &str,
    target: &str,
    token: &str,
    name: &str,
    retry_for: Duration,
    mut choose: F,
) -> Result<(), DialError>
where
    F: FnMut(&pb::ActRequest) -> Option<usize>,
{
    use tokio::time::{sleep, Instant};
    if target.starts_with("grpcs://") {
        return Err(DialError::BadTarget(format!(
            "{target}: this bot speaks plaintext gRPC only (tonic is built without TLS)"
        )));
    }
    let address = target.strip_prefix("grpc://").unwrap_or(target);
    let endpoint = tonic::transport::Endpoint::from_shared(format!("http://{address}"))
        .map_err(|e| DialError::BadTarget(format!("{target}: {e}")))?
        .tcp_nodelay(true);
    let mut give_up = Instant::now() + retry_for;
    let mut delay = Duration::from_millis(100);
    loop {
        let mut joined = false;
        // connect_lazy: an unreachable gateway is an UNAVAILABLE call, retried below.
        let client = pb::tables_client::TablesClient::new(endpoint.connect_lazy());
        match play(prog, client, token, name, &mut choose, &mut joined).await {
            Ok(()) => return Ok(()), // the gateway ended the stream: the run is over
            Err(s) if FINAL.contains(&s.code()) => return Err(DialError::Refused(s)),
            Err(s) => {
                if joined {
                    // it was playing: a new drop, a whole new wait
                    give_up = Instant::now() + retry_for;
                    delay = Duration::from_millis(100);
                }
                if Instant::now() >= give_up {
                    break;
                }
                eprintln!(
                    "{prog}: connection lost ({}); dialing again",
                    code_name(s.code())
                );
            }
        }
        sleep(delay).await;
        delay = (delay * 2).min(Duration::from_secs(2));
        if Instant::now() >= give_up {
            break;
        }
    }
    Err(DialError::Unreachable(format!(
        "cannot reach the gateway at {address}"
    )))
}

/// Refusals that trying again cannot mend.
const FINAL: [tonic::Code; 3] = [
    tonic::Code::Unauthenticated,
    tonic::Code::FailedPrecondition,
    tonic::Code::InvalidArgument,
];

/// One stream: the Hello, then an answer per decision; `joined` is set once welcome.
async fn play<F>(
    prog: &str,
    mut client: pb::tables_client::TablesClient<tonic::transport::Channel>,
    token: &str,
    name: &str,
    choose: &mut F,
    joined: &mut bool,
) -> Result<(), tonic::Status>
where
    F: FnMut(&pb::ActRequest) -> Option<usize>,
{
    use pb::bot_message::Kind as Out;
    use pb::table_message::Kind as In;
    use std::io::Write;
    // Unbounded: an answer is never held back by the stream's flow control here.
    let (answers, outgoing) = tokio::sync::mpsc::unbounded_channel();
    let hello = pb::Hello {
        token: token.to_string(),
        name: name.to_string(),
        plays: Vec::new(),
        protocol_version: PROTOCOL_VERSION,
    };
    let send = |message: Out| {
        // The receiver lives as long as the call; a closed one means the call ended.
        let _ = answers.send(pb::BotMessage {
            kind: Some(message),
        });
    };
    send(Out::Hello(hello));
    let outgoing = tokio_stream::wrappers::UnboundedReceiverStream::new(outgoing);
    let mut incoming = client.join(outgoing).await?.into_inner();
    while let Some(message) = incoming.message().await? {
        match message.kind {
            Some(In::Decision(decision)) => {
                let request = decision.request.unwrap_or_default();
                let choice = choose(&request).map(|i| pb::act_response::Choice::Index(i as u32));
                if choice.is_none() {
                    // nothing to choose: an empty answer, which the gateway refuses
                    eprintln!("{prog}: decision {} has no legal move", decision.sequence);
                }
                send(Out::Answer(pb::Answer {
                    sequence: decision.sequence,
                    response: Some(pb::ActResponse { choice }),
                    match_id: decision.match_id,
                    seat: None,
                }));
            }
            Some(In::Welcome(welcome)) => {
                *joined = true;
                let mut out = std::io::stdout().lock();
                let _ = writeln!(out, "JOINED {}", welcome.name);
                let _ = out.flush();
            }
            Some(In::Refusal(refusal)) => eprintln!(
                "{prog}: answer {} refused: {}",
                refusal.sequence, refusal.reason
            ),
            Some(In::MatchStarted(m)) => eprintln!("{prog}: match started: {}", m.match_id),
            Some(In::MatchEnded(m)) => eprintln!("{prog}: match ended: {}", m.match_id),
            None => {}
        }
    }
    Ok(())
}

/// True for a Maraffa claim: a false claim loses the match at once, so the
/// random players never make one.
pub fn is_claim(m: &pb::Move) -> bool {
    matches!(&m.r#move, Some(MoveKind::Maraffa(mm)) if matches!(mm.action, Some(Action::Claim(_))))
}

/// True for a Maraffa card play that carries a signal (a signal whose truth
/// condition fails may be illegal, and a random one says nothing true anyway).
pub fn has_signal(m: &pb::Move) -> bool {
    match &m.r#move {
        Some(MoveKind::Maraffa(mm)) => match &mm.action {
            Some(Action::PlayCard(p)) => p.signal != pb::MaraffaSignal::Unspecified as i32,
            _ => false,
        },
        _ => false,
    }
}

/// Indices of the moves a random player picks from: no claims, and only the
/// moves without a signal when there are any. Falls back to every move in the
/// (unusual) case where nothing else is legal.
pub fn candidates(moves: &[pb::Move]) -> Vec<usize> {
    let no_claim: Vec<usize> = (0..moves.len()).filter(|&i| !is_claim(&moves[i])).collect();
    let plain: Vec<usize> = no_claim
        .iter()
        .copied()
        .filter(|&i| !has_signal(&moves[i]))
        .collect();
    if !plain.is_empty() {
        plain
    } else if !no_claim.is_empty() {
        no_claim
    } else {
        (0..moves.len()).collect()
    }
}

/// A uniformly random pick among [`candidates`]; `None` when there is no move.
pub fn random_move(moves: &[pb::Move], rng: &mut fastrand::Rng) -> Option<usize> {
    let c = candidates(moves);
    if c.is_empty() {
        None
    } else {
        Some(c[rng.usize(..c.len())])
    }
}

/// The canonical name of a gRPC status code (`INVALID_ARGUMENT`, ...), as the
/// conformance vectors spell it.
pub fn code_name(code: tonic::Code) -> &'static str {
    use tonic::Code::*;
    match code {
        Ok => "OK",
        Cancelled => "CANCELLED",
        Unknown => "UNKNOWN",
        InvalidArgument => "INVALID_ARGUMENT",
        DeadlineExceeded => "DEADLINE_EXCEEDED",
        NotFound => "NOT_FOUND",
        AlreadyExists => "ALREADY_EXISTS",
        PermissionDenied => "PERMISSION_DENIED",
        ResourceExhausted => "RESOURCE_EXHAUSTED",
        FailedPrecondition => "FAILED_PRECONDITION",
        Aborted => "ABORTED",
        OutOfRange => "OUT_OF_RANGE",
        Unimplemented => "UNIMPLEMENTED",
        Internal => "INTERNAL",
        Unavailable => "UNAVAILABLE",
        DataLoss => "DATA_LOSS",
        Unauthenticated => "UNAUTHENTICATED",
    }
}

/// An error with its causes, so "transport error" says which one.
pub fn error_chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

/// `--name value` options; anything else is an error naming the usage line.
pub fn parse_args(allowed: &[&str], usage: &str) -> Result<HashMap<String, String>, String> {
    let mut out = HashMap::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "-h" || a == "--help" {
            println!("usage: {usage}");
            std::process::exit(0);
        }
        let (name, inline) = match a.split_once('=') {
            Some((n, v)) => (n.to_string(), Some(v.to_string())),
            None => (a.clone(), None),
        };
        let key = name.strip_prefix("--").filter(|k| allowed.contains(k));
        let Some(key) = key else {
            return Err(format!("unknown argument {a}\nusage: {usage}"));
        };
        let value = match inline {
            Some(v) => v,
            None => args
                .next()
                .ok_or_else(|| format!("{name} needs a value\nusage: {usage}"))?,
        };
        out.insert(key.to_string(), value);
    }
    Ok(out)
}

/// Parses an optional numeric option, naming it in the error.
pub fn parse_opt<T: std::str::FromStr>(
    args: &HashMap<String, String>,
    name: &str,
) -> Result<Option<T>, String> {
    args.get(name)
        .map(|v| {
            v.parse::<T>()
                .map_err(|_| format!("--{name}: not a valid number: {v}"))
        })
        .transpose()
}

/// Whether `salt`, `seed` and the dealt state open `commitment`: a deal's
/// commitment, checked locally (docs/fair-deals.md in the Mazzo repository). The
/// dealer publishes it before the first move and reveals the salt at the end;
/// `dealt` is the `GameState` that `Deal` gives for the revealed seed.
///
/// ```text
/// deal_hash  = BLAKE2b-256(the dealt GameState's wire bytes)
/// commitment = BLAKE2b-256("mazzo.v1 deal commitment" 0x00 || salt (32 bytes)
///                          || seed (8 bytes, little-endian) || deal_hash)
/// ```
pub fn verify_deal_commitment(
    commitment: &[u8],
    salt: &[u8],
    seed: u64,
    dealt: &pb::GameState,
) -> bool {
    use blake2::digest::consts::U32;
    use blake2::{Blake2b, Digest};
    type Blake2b256 = Blake2b<U32>;
    if commitment.len() != 32 || salt.len() != 32 {
        return false;
    }
    let deal_hash = Blake2b256::digest(prost::Message::encode_to_vec(dealt));
    let found = Blake2b256::new()
        .chain_update(b"mazzo.v1 deal commitment\0")
        .chain_update(salt)
        .chain_update(seed.to_le_bytes())
        .chain_update(deal_hash)
        .finalize();
    // Constant time: every byte compared whatever the first difference.
    found
        .iter()
        .zip(commitment)
        .fold(0u8, |acc, (a, b)| acc | (a ^ b))
        == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(signal: pb::MaraffaSignal) -> pb::Move {
        pb::Move {
            r#move: Some(MoveKind::Maraffa(pb::MaraffaMove {
                action: Some(Action::PlayCard(pb::MaraffaPlayCard {
                    card: 0,
                    signal: signal as i32,
                    declare_marafona: false,
                })),
            })),
        }
    }

    fn claim() -> pb::Move {
        pb::Move {
            r#move: Some(MoveKind::Maraffa(pb::MaraffaMove {
                action: Some(Action::Claim(Default::default())),
            })),
        }
    }

    #[test]
    fn claims_and_signals_are_avoided() {
        let moves = vec![
            claim(),
            play(pb::MaraffaSignal::Busso),
            play(pb::MaraffaSignal::Unspecified),
        ];
        assert_eq!(candidates(&moves), vec![2]);
        let only_signals = vec![claim(), play(pb::MaraffaSignal::Volo)];
        assert_eq!(candidates(&only_signals), vec![1]);
        assert_eq!(candidates(&[claim()]), vec![0]);
        assert!(candidates(&[]).is_empty());
    }

    #[test]
    fn the_service_config_retries_unavailable_on_game_service() {
        let policy = RetryPolicy::game_service().unwrap();
        assert_eq!(policy.retryable, vec![tonic::Code::Unavailable]);
        assert!(policy.max_attempts > 1);
        assert!(policy.initial_backoff > Duration::ZERO);
        let none = RetryPolicy::from_config(SERVICE_CONFIG, "mazzo.v1.Bot").unwrap();
        assert_eq!(none, None);
    }

    #[tokio::test(flavor = "current_thread")]
    async fn call_retries_only_the_retryable_codes() {
        let policy = RetryPolicy::game_service().unwrap();
        let mut calls = 0;
        let outcome = policy
            .call(|| {
                calls += 1;
                let n = calls;
                async move {
                    if n < 3 {
                        Err(tonic::Status::unavailable("starting"))
                    } else {
                        Ok(n)
                    }
                }
            })
            .await;
        assert_eq!(outcome.unwrap(), 3);

        let mut calls = 0;
        let outcome: Result<(), _> = policy
            .call(|| {
                calls += 1;
                async { Err(tonic::Status::invalid_argument("bad")) }
            })
            .await;
        assert_eq!(outcome.unwrap_err().code(), tonic::Code::InvalidArgument);
        assert_eq!(calls, 1);

        let mut calls = 0;
        let outcome: Result<(), _> = policy
            .call(|| {
                calls += 1;
                async { Err(tonic::Status::unavailable("down")) }
            })
            .await;
        assert_eq!(outcome.unwrap_err().code(), tonic::Code::Unavailable);
        assert_eq!(calls, policy.max_attempts);
    }
}
