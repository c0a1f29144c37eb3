//! Fuzzes the Bao decoder: a valid encoding (of content and group log chosen by the input) is
//! edited (bytes flipped, cut, extended) as the input says, then decoded from start to end and
//! after a seek, combined and outboard, and in memory (`bao::decode`, `bao::verify_outboard`).
//! It must never panic, every byte it releases must be the
//! content's, and a decoding that reaches the end must have released all of it. The raw input
//! is also decoded as an encoding against a fixed hash.
#![no_main]

use arborhash::bao::{self, Decoder, GroupLog};
use libfuzzer_sys::fuzz_target;
use std::io::{Cursor, Read, Seek, SeekFrom};

mod bao_common;
use bao_common::{check, edit};

fuzz_target!(|data: &[u8]| {
    if data.len() < 5 {
        return;
    }
    let g = GroupLog::new(data[0] % 4).unwrap();
    let len = u16::from_le_bytes([data[1], data[2]]) as usize * 2;
    let seek_to = data[3] as u64 * len as u64 / 255;
    let content: Vec<u8> = (0..len).map(|i| (i ^ (i >> 9)) as u8).collect();
    let (mut encoded, hash) = bao::encode(&content, g);
    let (mut outboard, _) = bao::outboard(&content, g);
    let edits = &data[4..];
    if data[3] % 2 == 0 {
        edit(&mut encoded, edits);
    } else {
        edit(&mut outboard, edits);
    }

    check(Decoder::new(&encoded[..], &hash, g), &content);
    check(Decoder::new_outboard(&content[..], &outboard[..], &hash, g), &content);

    // In memory: only the content itself may decode.
    if let Ok(decoded) = bao::decode(&encoded, &hash, g) {
        assert!(decoded == content);
    }
    let _ = bao::verify_outboard(&content, &outboard, &hash, g);

    let rest = &content[seek_to as usize..];
    let mut decoder = Decoder::new(Cursor::new(&encoded), &hash, g);
    if decoder.seek(SeekFrom::Start(seek_to)).is_ok() {
        check(decoder, rest);
    }
    let mut decoder = Decoder::new_outboard(
        Cursor::new(&content),
        Cursor::new(&outboard),
        &hash,
        g,
    );
    if decoder.seek(SeekFrom::Start(seek_to)).is_ok() {
        check(decoder, rest);
    }

    // The raw input as an encoding: anything but a panic.
    let mut sink = Vec::new();
    let _ = Decoder::new(&data[4..], &hash, g).read_to_end(&mut sink);
    let _ = bao::decode(&data[4..], &hash, g);
    let mut decoder = Decoder::new(Cursor::new(&data[4..]), &hash, g);
    let _ = decoder.seek(SeekFrom::End(-1));
});
