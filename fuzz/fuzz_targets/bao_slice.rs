//! Fuzzes the Bao slice decoder: a valid slice (of content, group log, start and count chosen
//! by the input) is edited as the input says and decoded. It must never panic, every byte it
//! releases must be the content's, and a decoding that reaches the end must have released the
//! whole requested range. The raw input is also decoded as a slice against a fixed hash, and
//! the extractor runs on the raw input as an encoding.
#![no_main]

use arborhash::bao::{self, GroupLog, SliceDecoder, SliceExtractor};
use libfuzzer_sys::fuzz_target;
use std::io::{Cursor, Read};

mod bao_common;
use bao_common::{check, edit};

fuzz_target!(|data: &[u8]| {
    if data.len() < 9 {
        return;
    }
    let g = GroupLog::new(data[0] % 4).unwrap();
    let len = u16::from_le_bytes([data[1], data[2]]) as usize * 2;
    let start = u16::from_le_bytes([data[3], data[4]]) as u64 * 3;
    let count = u16::from_le_bytes([data[5], data[6]]) as u64;
    let content: Vec<u8> = (0..len).map(|i| (i ^ (i >> 9)) as u8).collect();
    let (encoded, hash) = bao::encode(&content, g);
    let mut slice = Vec::new();
    SliceExtractor::new(Cursor::new(&encoded), start, count, g)
        .read_to_end(&mut slice)
        .unwrap();
    edit(&mut slice, &data[7..]);
    let from = (start as usize).min(len);
    let expected = &content[from..(start.saturating_add(count) as usize).min(len)];
    check(SliceDecoder::new(&slice[..], &hash, start, count, g), expected);

    let mut sink = Vec::new();
    let _ = SliceDecoder::new(&data[7..], &hash, start, count, g).read_to_end(&mut sink);
    sink.clear();
    let _ = SliceExtractor::new(Cursor::new(&data[7..]), start, count, g).read_to_end(&mut sink);
});
