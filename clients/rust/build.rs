//! Generates the Mazzo messages, the GameService client and the Bot server from
//! `../../proto/mazzo/v1` at build time (tonic + prost), and keeps the descriptor
//! set, from which the conformance runner reads proto3 JSON (prost-reflect). protoc
//! comes from the `protoc-bin-vendored` crate unless `PROTOC` is set, so no system
//! protoc is needed.

use std::env;
use std::path::PathBuf;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let root = PathBuf::from(env::var("CARGO_MANIFEST_DIR")?).join("../..");
    let proto_dir = root.join("proto");
    let deps_dir = root.join("build/proto-deps");
    if !deps_dir.join("google/api/annotations.proto").exists() {
        return Err(format!(
            "{} lacks google/api/annotations.proto: run `make -C ../.. proto-deps` (or `make build`)",
            deps_dir.display()
        )
        .into());
    }
    if env::var_os("PROTOC").is_none() {
        // SAFETY: build scripts are single-threaded; prost-build reads PROTOC later.
        unsafe { env::set_var("PROTOC", protoc_bin_vendored::protoc_bin_path()?) };
    }
    let wkt_include = protoc_bin_vendored::include_path()?;

    // Every .proto of the package, sorted, so a new game's file needs no edit here.
    let mut files: Vec<PathBuf> = std::fs::read_dir(proto_dir.join("mazzo/v1"))?
        .map(|entry| entry.map(|e| e.path()))
        .collect::<Result<_, _>>()?;
    files.retain(|path| path.extension().is_some_and(|ext| ext == "proto"));
    files.sort();
    let includes = [proto_dir.clone(), deps_dir, wkt_include];
    let out_dir = PathBuf::from(env::var("OUT_DIR")?);
    let descriptor_path = out_dir.join("mazzo_descriptor.bin");

    tonic_prost_build::configure()
        .build_client(true)
        .build_server(true)
        .file_descriptor_set_path(&descriptor_path)
        .compile_protos(&files, &includes)?;

    println!(
        "cargo:rerun-if-changed={}",
        proto_dir.join("mazzo/v1").display()
    );
    Ok(())
}
