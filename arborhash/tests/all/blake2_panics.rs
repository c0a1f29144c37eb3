//! Every out-of-range BLAKE2 parameter panics with a message naming the parameter and its limit.

use arborhash::{blake2b, blake2bp, blake2s, blake2sp, blake2xb, blake2xs};

#[test]
#[should_panic(expected = "hash_length must be between 1 and 64 for BLAKE2b, got 0")]
fn blake2b_hash_length_zero() {
    blake2b::Params::new().hash_length(0);
}

#[test]
#[should_panic(expected = "hash_length must be between 1 and 64 for BLAKE2b, got 65")]
fn blake2b_hash_length_too_long() {
    blake2b::Params::new().hash_length(65);
}

#[test]
#[should_panic(expected = "hash_length must be between 1 and 32 for BLAKE2s, got 33")]
fn blake2s_hash_length_too_long() {
    blake2s::Params::new().hash_length(33);
}

#[test]
#[should_panic(expected = "key must be at most 64 bytes for BLAKE2b, got 65")]
fn blake2b_key_too_long() {
    blake2b::Params::new().key(&[0; 65]);
}

#[test]
#[should_panic(expected = "key must be at most 32 bytes for BLAKE2s, got 33")]
fn blake2s_key_too_long() {
    blake2s::Params::new().key(&[0; 33]);
}

#[test]
#[should_panic(expected = "salt must be at most 16 bytes for BLAKE2b, got 17")]
fn blake2b_salt_too_long() {
    blake2b::Params::new().salt(&[0; 17]);
}

#[test]
#[should_panic(expected = "salt must be at most 8 bytes for BLAKE2s, got 9")]
fn blake2s_salt_too_long() {
    blake2s::Params::new().salt(&[0; 9]);
}

#[test]
#[should_panic(expected = "personal must be at most 16 bytes for BLAKE2b, got 17")]
fn blake2b_personal_too_long() {
    blake2b::Params::new().personal(&[0; 17]);
}

#[test]
#[should_panic(expected = "personal must be at most 8 bytes for BLAKE2s, got 9")]
fn blake2s_personal_too_long() {
    blake2s::Params::new().personal(&[0; 9]);
}

#[test]
#[should_panic(expected = "node_offset must be less than 2^48 for BLAKE2s, got 281474976710656")]
fn blake2s_node_offset_too_large() {
    blake2s::Params::new().node_offset(1 << 48);
}

#[test]
#[should_panic(expected = "inner_hash_length must be at most 64 for BLAKE2b, got 65")]
fn blake2b_inner_hash_length_too_long() {
    blake2b::Params::new().inner_hash_length(65);
}

#[test]
#[should_panic(expected = "inner_hash_length must be at most 32 for BLAKE2s, got 33")]
fn blake2s_inner_hash_length_too_long() {
    blake2s::Params::new().inner_hash_length(33);
}

#[test]
#[should_panic(expected = "hash_length must be between 1 and 64 for BLAKE2b, got 0")]
fn blake2bp_hash_length_zero() {
    blake2bp::Params::new().hash_length(0);
}

#[test]
#[should_panic(expected = "key must be at most 32 bytes for BLAKE2s, got 33")]
fn blake2sp_key_too_long() {
    blake2sp::Params::new().key(&[0; 33]);
}

#[test]
#[should_panic(
    expected = "output_length must be between 1 and 4294967295 for BLAKE2Xb, got 4294967296"
)]
fn blake2xb_output_length_too_long() {
    blake2xb::Params::new().output_length(1 << 32);
}

#[test]
#[should_panic(expected = "output_length must be between 1 and 65535 for BLAKE2Xs, got 65536")]
fn blake2xs_output_length_too_long() {
    blake2xs::Params::new().output_length(65536);
}

#[test]
#[should_panic(expected = "output_length must be between 1 and 65535 for BLAKE2Xs, got 0")]
fn blake2xs_empty_output() {
    blake2xs::blake2xs(b"", &mut []);
}

#[test]
#[should_panic(expected = "output is limited to 10 bytes; 4 remain, 5 requested")]
fn blake2x_read_past_declared_length() {
    let mut reader = blake2xb::Params::new()
        .output_length(10)
        .to_state()
        .finalize_xof();
    reader.fill(&mut [0; 6]);
    reader.fill(&mut [0; 5]);
}

#[test]
#[should_panic(expected = "finalize needs an output buffer of the declared output_length")]
fn blake2x_finalize_wrong_length() {
    blake2xs::Params::new()
        .output_length(10)
        .to_state()
        .finalize(&mut [0; 11]);
}

#[test]
#[should_panic(expected = "HashManyJob::to_hash called before hash_many ran the job")]
fn hash_many_job_not_run() {
    let params = blake2b::Params::new();
    blake2b::many::HashManyJob::new(&params, b"abc").to_hash();
}
