//! The `arbor` command: checksum files (`arbor sum`) and benchmark hashes (`arbor bench`).

fn main() {
    let sel = arborhash::platform::selection();
    println!("arbor: backend {}", sel.active);
}
