//! Generated Mazzo types and the small helpers the three binaries share: argument
//! parsing, move filtering and the gRPC status code names.

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
use std::collections::HashMap;

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
}
