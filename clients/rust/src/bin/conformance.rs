//! The conformance runner: plays every vector of `clients/conformance/vectors`
//! against a live server. Requests and expected responses are proto3 JSON, read
//! through the descriptor set with prost-reflect (names or numbers for enums, int64
//! as strings, both field-name styles) and transcoded to the generated types;
//! responses are compared as messages (`PartialEq`). Calls retry as
//! `clients/service-config.json` says ([`mazzo_client::RetryPolicy`]).

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
use mazzo_client::{code_name, game_service, parse_args, RetryPolicy, FILE_DESCRIPTOR_SET};
use prost_reflect::{DescriptorPool, DynamicMessage};
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
    rpc: String,
    request: Value,
    expect: Expect,
}

#[derive(Deserialize)]
#[serde(rename_all = "lowercase")]
enum Expect {
    Response(Value),
    Error(ExpectedError),
}

#[derive(Deserialize)]
struct ExpectedError {
    code: String,
    field: Option<String>,
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
            match run_vector(&mut client, &retry, &pool, &v).await {
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

/// Parses the request, calls the RPC (retrying as the service config says) and
/// checks the outcome against `expect`.
macro_rules! call {
    ($client:expr, $retry:expr, $pool:expr, $v:expr, $method:ident, $Req:ty, $Resp:ty) => {{
        let req: $Req = from_json($pool, &format!("mazzo.v1.{}Request", $v.rpc), &$v.request)
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
    v: &Vector,
) -> Result<(), String> {
    match v.rpc.as_str() {
        "ListGames" => call!(
            client,
            retry,
            pool,
            v,
            list_games,
            ListGamesRequest,
            ListGamesResponse
        ),
        "Deal" => call!(client, retry, pool, v, deal, DealRequest, DealResponse),
        "LegalMoves" => {
            call!(
                client,
                retry,
                pool,
                v,
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
            apply_move,
            ApplyMoveRequest,
            ApplyMoveResponse
        ),
        "GetView" => call!(
            client,
            retry,
            pool,
            v,
            get_view,
            GetViewRequest,
            GetViewResponse
        ),
        "Score" => call!(client, retry, pool, v, score, ScoreRequest, ScoreResponse),
        "Determinize" => call!(
            client,
            retry,
            pool,
            v,
            determinize,
            DeterminizeRequest,
            DeterminizeResponse
        ),
        "ApplyMoves" => call!(
            client,
            retry,
            pool,
            v,
            apply_moves,
            ApplyMovesRequest,
            ApplyMovesResponse
        ),
        "Simulate" => call!(
            client,
            retry,
            pool,
            v,
            simulate,
            SimulateRequest,
            SimulateResponse
        ),
        other => Err(format!("unknown rpc {other:?}")),
    }
}

/// Parses proto3 JSON as the message `name`, then transcodes it to the generated type.
fn from_json<T: prost::Message + Default>(
    pool: &DescriptorPool,
    name: &str,
    json: &Value,
) -> Result<T, String> {
    let desc = pool
        .get_message_by_name(name)
        .ok_or(format!("no message {name}"))?;
    let dynamic = DynamicMessage::deserialize(desc, json)
        .map_err(|e| format!("not a valid {name} in proto3 JSON: {e}"))?;
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
) -> Result<(), String>
where
    T: prost::Message + Default + PartialEq + Debug,
{
    match (expect, outcome) {
        (Expect::Response(json), Ok(actual)) => {
            let expected: T =
                from_json(pool, name, json).map_err(|e| format!("expected response: {e}"))?;
            if actual == expected {
                Ok(())
            } else {
                Err(describe_difference(
                    to_json(pool, name, &expected),
                    to_json(pool, name, &actual),
                ))
            }
        }
        (Expect::Response(_), Err(status)) => Err(format!(
            "expected a response, got {} {:?}",
            code_name(status.code()),
            status.message()
        )),
        (Expect::Error(e), Ok(_)) => Err(format!("expected error {}, got a response", e.code)),
        (Expect::Error(e), Err(status)) => {
            let code = code_name(status.code());
            if code != e.code {
                return Err(format!(
                    "expected error {}, got {code} {:?}",
                    e.code,
                    status.message()
                ));
            }
            let Some(field) = &e.field else { return Ok(()) };
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
                Ok(())
            } else {
                Err(format!(
                    "expected a BadRequest violation of {field:?}, got {fields:?}"
                ))
            }
        }
    }
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
