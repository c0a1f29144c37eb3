//! BLAKE2Xs: extendable output from BLAKE2s, up to 2^16-1 bytes declared in advance, or a
//! stream of up to 2^32 32-byte blocks when the length is unknown. The API is that of
//! [`blake2xb`](crate::blake2xb).

crate::blake2::api::xof_api!(crate::blake2::variant::Blake2s, "BLAKE2Xs", blake2xs);
