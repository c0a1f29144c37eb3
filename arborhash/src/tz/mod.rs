//! The Tillich-Zémor hash.
