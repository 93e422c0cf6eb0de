//! The conformance runner: plays every vector of `clients/conformance/vectors`
//! against a live server. Requests and expected responses are proto3 JSON, read
//! through the descriptor set with prost-reflect (names or numbers for enums, int64
//! as strings, both field-name styles) and transcoded to the generated types;
//! responses are compared as messages (`PartialEq`). Calls retry as
//! `clients/service-config.json` says ([`mazzo_client::RetryPolicy`]). A sealed
//! vector is a sequence of calls, each step's token taken from an earlier answer;
//! a `verify_deal_commitment` vector is checked locally
//! ([`mazzo_client::verify_deal_commitment`]), with no call.

use std::fmt::Debug;
use std::path::{Path, PathBuf};
use std::time::Duration;

use mazzo_client::pb::game_service_client::GameServiceClient;
use mazzo_client::pb::{
    ApplyMoveRequest, ApplyMoveResponse, ApplyMovesRequest, ApplyMovesResponse, DealRequest,
    DealResponse, DeterminizeRequest, DeterminizeResponse, GetViewRequest, GetViewResponse,
    LegalMovesRequest, LegalMovesResponse, ListGamesRequest, ListGamesResponse, ScoreRequest,
    ScoreResponse, SimulateRequest, SimulateResponse,
};
use mazzo_client::{
    code_name, game_service, parse_args, verify_deal_commitment, RetryPolicy, FILE_DESCRIPTOR_SET,
};
use prost_reflect::{DescriptorPool, DynamicMessage, ReflectMessage};
use serde::Deserialize;
use serde_json::Value;
use tonic::transport::Channel;
use tonic_types::StatusExt;

const USAGE: &str = "conformance --target HOST:PORT --vectors DIR";

#[derive(Deserialize)]
struct VectorFile {
    vectors: Vec<Vector>,
}

#[derive(Deserialize)]
struct Vector {
    name: String,
    rpc: Option<String>,
    request: Option<Value>,
    /// A sealed exchange: calls in order, tokens taken from earlier answers.
    steps: Option<Vec<Call>>,
    /// A deal's commitment, checked locally.
    verify_deal_commitment: Option<Commitment>,
    expect: Option<Expect>,
}

#[derive(Deserialize)]
struct Call {
    rpc: String,
    request: Value,
    /// The token to send: `sealed_states[seat]` of step `step`'s answer.
    token: Option<Token>,
    expect: Expect,
}

#[derive(Deserialize)]
struct Token {
    step: usize,
    seat: usize,
    /// XOR this byte with 1 (negative: counted from the end).
    flip_byte: Option<i64>,
}

#[derive(Clone, Deserialize)]
struct Expect {
    response: Option<Value>,
    error: Option<ExpectedError>,
    /// The answer's tokens: how many, at which move number.
    sealed: Option<SealedShape>,
    valid: Option<bool>,
}

#[derive(Clone, Deserialize)]
struct SealedShape {
    tokens: usize,
    #[serde(rename = "move")]
    move_number: u32,
}

#[derive(Deserialize)]
struct Commitment {
    commitment: String,
    salt: String,
    seed: String,
    dealt_state: Value,
}

#[derive(Clone, Deserialize)]
struct ExpectedError {
    code: String,
    field: Option<String>,
}

/// What a sealed answer carries besides what is compared: its tokens, match id and
/// commitment (random, or keyed by the server's key; their shape is checked).
#[derive(Default)]
struct Answer {
    tokens: Vec<Vec<u8>>,
    match_id: String,
    commitment_len: usize,
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    match run().await {
        Ok(true) => {}
        Ok(false) => std::process::exit(1),
        Err(e) => {
            eprintln!("conformance: {}", mazzo_client::error_chain(e.as_ref()));
            std::process::exit(2);
        }
    }
}

async fn run() -> Result<bool, Box<dyn std::error::Error>> {
    let args = parse_args(&["target", "vectors"], USAGE)?;
    let target = args
        .get("target")
        .ok_or(format!("--target is required\nusage: {USAGE}"))?;
    let dir = args
        .get("vectors")
        .ok_or(format!("--vectors is required\nusage: {USAGE}"))?;

    let (mut client, retry) = game_service(target, Some(Duration::from_secs(30)))?;
    let pool = DescriptorPool::decode(FILE_DESCRIPTOR_SET)?;

    let (mut passed, mut failed) = (0u32, 0u32);
    for path in vector_files(Path::new(dir))? {
        let text = std::fs::read_to_string(&path)?;
        let file: VectorFile = match serde_json::from_str(&text) {
            Ok(f) => f,
            Err(e) => {
                println!("FAIL {}: not a vector file: {e}", path.display());
                failed += 1;
                continue;
            }
        };
        for v in file.vectors {
            match check_vector(&mut client, &retry, &pool, &v).await {
                Ok(()) => passed += 1,
                Err(why) => {
                    println!("FAIL {}: {why}", v.name);
                    failed += 1;
                }
            }
        }
    }
    println!("conformance rust: passed={passed} failed={failed}");
    Ok(failed == 0 && passed > 0)
}

/// The `*.json` files of the folder, in name order so runs are comparable.
fn vector_files(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    Ok(files)
}

async fn check_vector(
    client: &mut GameServiceClient<Channel>,
    retry: &RetryPolicy,
    pool: &DescriptorPool,
    v: &Vector,
) -> Result<(), String> {
    if let Some(steps) = &v.steps {
        return check_sealed(client, retry, pool, steps).await;
    }
    if let Some(c) = &v.verify_deal_commitment {
        let hex = |s: &str| -> Result<Vec<u8>, String> {
            (0..s.len())
                .step_by(2)
                .map(|i| u8::from_str_radix(s.get(i..i + 2).unwrap_or("x"), 16))
                .collect::<Result<_, _>>()
                .map_err(|e| format!("bad hex: {e}"))
        };
        let seed: u64 = c.seed.parse().map_err(|e| format!("bad seed: {e}"))?;
        let dealt = from_json(pool, "mazzo.v1.GameState", &c.dealt_state, None)?;
        let valid = verify_deal_commitment(&hex(&c.commitment)?, &hex(&c.salt)?, seed, &dealt);
        let want = v.expect.as_ref().and_then(|e| e.valid);
        return if Some(valid) == want {
            Ok(())
        } else {
            Err(format!("verify_deal_commitment gave {valid}"))
        };
    }
    let (Some(rpc), Some(request), Some(expect)) = (&v.rpc, &v.request, &v.expect) else {
        return Err("neither rpc, steps nor verify_deal_commitment".into());
    };
    let call = Call {
        rpc: rpc.clone(),
        request: request.clone(),
        token: None,
        expect: expect.clone(),
    };
    run_vector(client, retry, pool, &call, None)
        .await
        .map(|_| ())
}

/// A sealed exchange; every answer's tokens checked by their header
/// (docs/sealing.md: version 1, key id, match id, move number, seat, seats).
async fn check_sealed(
    client: &mut GameServiceClient<Channel>,
    retry: &RetryPolicy,
    pool: &DescriptorPool,
    steps: &[Call],
) -> Result<(), String> {
    let mut answers: Vec<Option<Answer>> = Vec::new();
    let mut match_id: Option<Vec<u8>> = None;
    for (i, step) in steps.iter().enumerate() {
        let token = match &step.token {
            None => None,
            Some(t) => {
                let mut token = answers
                    .get(t.step)
                    .and_then(|a| a.as_ref())
                    .and_then(|a| a.tokens.get(t.seat))
                    .ok_or(format!("step {i}: no token at step {}", t.step))?
                    .clone();
                if let Some(at) = t.flip_byte {
                    let at = if at < 0 { token.len() as i64 + at } else { at };
                    token[at as usize] ^= 1;
                }
                Some(token)
            }
        };
        let answer = run_vector(client, retry, pool, step, token)
            .await
            .map_err(|e| format!("step {i} ({}): {e}", step.rpc))?;
        if let (Some(a), Some(want)) = (&answer, &step.expect.sealed) {
            if a.tokens.len() != want.tokens {
                return Err(format!(
                    "step {i}: {} tokens, expected {}",
                    a.tokens.len(),
                    want.tokens
                ));
            }
            for (seat, t) in a.tokens.iter().enumerate() {
                let n = 2 + *t.get(1).unwrap_or(&0) as usize;
                if t.len() < n + 22 + 12 + 16 || t[0] != 1 || !(3..=34).contains(&n) {
                    return Err(format!("step {i}: token {seat} has no version 1 header"));
                }
                let id = &t[n..n + 16];
                let mv = u32::from_be_bytes([t[n + 16], t[n + 17], t[n + 18], t[n + 19]]);
                if mv != want.move_number
                    || t[n + 20] as usize != seat
                    || t[n + 21] as usize != a.tokens.len()
                {
                    return Err(format!(
                        "step {i}: token {seat}: move {mv}, seat {} of {}",
                        t[n + 20],
                        t[n + 21]
                    ));
                }
                match &match_id {
                    None => match_id = Some(id.to_vec()),
                    Some(m) if m != id => {
                        return Err(format!("step {i}: token {seat} is of another match"))
                    }
                    _ => {}
                }
            }
            if step.rpc == "Deal" {
                let hex: String = match_id
                    .iter()
                    .flatten()
                    .map(|b| format!("{b:02x}"))
                    .collect();
                if a.match_id != hex || a.commitment_len != 32 {
                    return Err(format!(
                        "step {i}: match_id {:?} or a deal_commitment not of 32 bytes",
                        a.match_id
                    ));
                }
            }
        }
        answers.push(answer);
    }
    Ok(())
}

/// Parses the request (with `$token` as its `sealed_state`), calls the RPC
/// (retrying as the service config says) and checks the outcome against `expect`.
macro_rules! call {
    ($client:expr, $retry:expr, $pool:expr, $v:expr, $token:expr, $method:ident, $Req:ty, $Resp:ty) => {{
        let req: $Req = from_json(
            $pool,
            &format!("mazzo.v1.{}Request", $v.rpc),
            &$v.request,
            $token,
        )
        .map_err(|e| format!("request: {e}"))?;
        let outcome = $retry
            .call(|| {
                let (mut client, req) = ($client.clone(), req.clone());
                async move { client.$method(req).await }
            })
            .await
            .map(|r| r.into_inner());
        check::<$Resp>(
            $pool,
            &format!("mazzo.v1.{}Response", $v.rpc),
            outcome,
            &$v.expect,
        )
    }};
}

async fn run_vector(
    client: &mut GameServiceClient<Channel>,
    retry: &RetryPolicy,
    pool: &DescriptorPool,
    v: &Call,
    token: Option<Vec<u8>>,
) -> Result<Option<Answer>, String> {
    match v.rpc.as_str() {
        "ListGames" => call!(
            client,
            retry,
            pool,
            v,
            token,
            list_games,
            ListGamesRequest,
            ListGamesResponse
        ),
        "Deal" => call!(
            client,
            retry,
            pool,
            v,
            token,
            deal,
            DealRequest,
            DealResponse
        ),
        "LegalMoves" => {
            call!(
                client,
                retry,
                pool,
                v,
                token,
                legal_moves,
                LegalMovesRequest,
                LegalMovesResponse
            )
        }
        "ApplyMove" => call!(
            client,
            retry,
            pool,
            v,
            token,
            apply_move,
            ApplyMoveRequest,
            ApplyMoveResponse
        ),
        "GetView" => call!(
            client,
            retry,
            pool,
            v,
            token,
            get_view,
            GetViewRequest,
            GetViewResponse
        ),
        "Score" => call!(
            client,
            retry,
            pool,
            v,
            token,
            score,
            ScoreRequest,
            ScoreResponse
        ),
        "Determinize" => call!(
            client,
            retry,
            pool,
            v,
            token,
            determinize,
            DeterminizeRequest,
            DeterminizeResponse
        ),
        "ApplyMoves" => call!(
            client,
            retry,
            pool,
            v,
            token,
            apply_moves,
            ApplyMovesRequest,
            ApplyMovesResponse
        ),
        "Simulate" => call!(
            client,
            retry,
            pool,
            v,
            token,
            simulate,
            SimulateRequest,
            SimulateResponse
        ),
        other => Err(format!("unknown rpc {other:?}")),
    }
}

/// Parses proto3 JSON as the message `name` (with `token` as its `sealed_state`),
/// then transcodes it to the generated type.
fn from_json<T: prost::Message + Default>(
    pool: &DescriptorPool,
    name: &str,
    json: &Value,
    token: Option<Vec<u8>>,
) -> Result<T, String> {
    let desc = pool
        .get_message_by_name(name)
        .ok_or(format!("no message {name}"))?;
    let mut dynamic = DynamicMessage::deserialize(desc, json)
        .map_err(|e| format!("not a valid {name} in proto3 JSON: {e}"))?;
    if let Some(token) = token {
        dynamic
            .try_set_field_by_name("sealed_state", prost_reflect::Value::Bytes(token.into()))
            .map_err(|e| format!("{name}: cannot set sealed_state: {e}"))?;
    }
    dynamic
        .transcode_to::<T>()
        .map_err(|e| format!("{name} does not transcode: {e}"))
}

/// The proto3 JSON of a message, used only to explain a difference.
fn to_json<T: prost::Message>(pool: &DescriptorPool, name: &str, msg: &T) -> Option<Value> {
    let desc = pool.get_message_by_name(name)?;
    let dynamic = DynamicMessage::decode(desc, msg.encode_to_vec().as_slice()).ok()?;
    serde_json::to_value(&dynamic).ok()
}

fn check<T>(
    pool: &DescriptorPool,
    name: &str,
    outcome: Result<T, tonic::Status>,
    expect: &Expect,
) -> Result<Option<Answer>, String>
where
    T: prost::Message + Default + PartialEq + Debug,
{
    match (&expect.response, &expect.error, outcome) {
        (Some(json), _, Ok(actual)) => {
            let expected: T =
                from_json(pool, name, json, None).map_err(|e| format!("expected response: {e}"))?;
            let (actual, answer) = if expect.sealed.is_some() {
                sealed_answer(pool, name, &actual)?
            } else {
                (actual, Answer::default())
            };
            if actual == expected {
                Ok(Some(answer))
            } else {
                Err(describe_difference(
                    to_json(pool, name, &expected),
                    to_json(pool, name, &actual),
                ))
            }
        }
        (Some(_), _, Err(status)) => Err(format!(
            "expected a response, got {} {:?}",
            code_name(status.code()),
            status.message()
        )),
        (None, None, _) => Err("vector expects neither a response nor an error".into()),
        (None, Some(e), Ok(_)) => Err(format!("expected error {}, got a response", e.code)),
        (None, Some(e), Err(status)) => {
            let code = code_name(status.code());
            if code != e.code {
                return Err(format!(
                    "expected error {}, got {code} {:?}",
                    e.code,
                    status.message()
                ));
            }
            let Some(field) = &e.field else {
                return Ok(None);
            };
            let details = status
                .check_error_details()
                .map_err(|err| format!("status details do not decode: {err}"))?;
            let fields: Vec<&str> = details
                .bad_request()
                .map(|b| {
                    b.field_violations
                        .iter()
                        .map(|f| f.field.as_str())
                        .collect()
                })
                .unwrap_or_default();
            if fields.contains(&field.as_str()) {
                Ok(None)
            } else {
                Err(format!(
                    "expected a BadRequest violation of {field:?}, got {fields:?}"
                ))
            }
        }
    }
}

/// A sealed answer with its random fields (`sealed_states`, `match_id`,
/// `deal_commitment`) cleared for the comparison, and what they held.
fn sealed_answer<T: prost::Message + Default>(
    pool: &DescriptorPool,
    name: &str,
    actual: &T,
) -> Result<(T, Answer), String> {
    let desc = pool
        .get_message_by_name(name)
        .ok_or(format!("no message {name}"))?;
    let mut dynamic = DynamicMessage::decode(desc, actual.encode_to_vec().as_slice())
        .map_err(|e| format!("{name}: {e}"))?;
    let mut answer = Answer::default();
    if let Some(list) = dynamic.get_field_by_name("sealed_states") {
        if let Some(items) = list.as_list() {
            answer.tokens = items
                .iter()
                .map(|v| v.as_bytes().map(|b| b.to_vec()).unwrap_or_default())
                .collect();
        }
    }
    if let Some(id) = dynamic.get_field_by_name("match_id") {
        answer.match_id = id.as_str().unwrap_or_default().to_string();
    }
    if let Some(c) = dynamic.get_field_by_name("deal_commitment") {
        answer.commitment_len = c.as_bytes().map_or(0, |b| b.len());
    }
    for field in ["sealed_states", "match_id", "deal_commitment"] {
        if dynamic.descriptor().get_field_by_name(field).is_some() {
            dynamic.clear_field_by_name(field);
        }
    }
    let cleared = dynamic
        .transcode_to::<T>()
        .map_err(|e| format!("{name} does not transcode: {e}"))?;
    Ok((cleared, answer))
}

/// Names the first differing path, read through the proto3 JSON of both messages
/// (only to explain a difference already found by message equality).
fn describe_difference(expected: Option<Value>, actual: Option<Value>) -> String {
    let (Some(e), Some(a)) = (expected, actual) else {
        return "responses differ".into();
    };
    match first_diff(&e, &a, String::new()) {
        Some(d) => format!("responses differ at {d}"),
        None => "responses differ".into(),
    }
}

fn first_diff(e: &Value, a: &Value, path: String) -> Option<String> {
    let shorten = |v: &Value| {
        let s = v.to_string();
        if s.len() > 120 {
            format!("{}...", &s[..120])
        } else {
            s
        }
    };
    match (e, a) {
        (Value::Object(eo), Value::Object(ao)) => {
            let mut keys: Vec<&String> = eo.keys().chain(ao.keys()).collect();
            keys.sort();
            keys.dedup();
            keys.into_iter().find_map(|k| {
                let p = format!("{path}.{k}");
                match (eo.get(k), ao.get(k)) {
                    (Some(x), Some(y)) => first_diff(x, y, p),
                    (x, y) => Some(format!(
                        "{p}: expected {}, got {}",
                        x.map_or("(unset)".into(), shorten),
                        y.map_or("(unset)".into(), shorten)
                    )),
                }
            })
        }
        (Value::Array(ea), Value::Array(aa)) if ea.len() == aa.len() => ea
            .iter()
            .zip(aa)
            .enumerate()
            .find_map(|(i, (x, y))| first_diff(x, y, format!("{path}[{i}]"))),
        _ if e == a => None,
        _ => Some(format!(
            "{path}: expected {}, got {}",
            shorten(e),
            shorten(a)
        )),
    }
}
