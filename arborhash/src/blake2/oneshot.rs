//! The one-shot BLAKE2 core: a whole message hashed from a chaining value, below both the
//! parameter builder and the incremental hasher, which each use it.

use super::dispatch::Dispatch as _;
use super::kernels::LastNode;
use super::variant::Variant;
use super::Hash;
use crate::bytes::wipe;
use crate::platform::Platform;

/// Hashes `input` all at once from the chaining value `words`, with the key block (if any) first:
/// what a `State` would compute, without its buffer. Whole blocks are compressed straight from
/// `input` and only the final one is copied, zero-padded, so that a short message costs one block
/// copy and one kernel call.
#[inline]
pub(crate) fn hash_all<V: Variant>(
    p: Platform,
    mut words: [V::Word; 8],
    key: Option<&V::Block>,
    input: &[u8],
    last_node: LastNode,
    hash_length: u8,
) -> Hash<V> {
    let block = V::BLOCKBYTES;
    let mut count = 0u128;
    let mut last = V::ZERO_BLOCK;
    let last_len = match key {
        // An empty keyed message: the key block is the final block.
        Some(key) if input.is_empty() => {
            last = *key;
            block
        }
        _ => {
            if let Some(key) = key {
                V::Word::compress_blocks(p, &mut words, key.as_ref(), &mut count);
            }
            // Every whole block but the last one, which may be final.
            let whole = input.len().saturating_sub(1) / block * block;
            if whole > 0 {
                V::Word::compress_blocks(p, &mut words, &input[..whole], &mut count);
            }
            let rest = &input[whole..];
            last.as_mut()[..rest.len()].copy_from_slice(rest);
            rest.len()
        }
    };
    let count = count.wrapping_add(last_len as u128);
    V::Word::compress_final(p, &mut words, &last, count, last_node);
    let hash = Hash::from_words(&words, hash_length as usize);
    if key.is_some() {
        wipe(&mut words);
        wipe(last.as_mut());
    }
    hash
}
