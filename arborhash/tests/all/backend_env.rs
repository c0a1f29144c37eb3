//! Checks that `ARBORHASH_BACKEND` selects the backend (scripts/test.sh runs this once per value).

use arborhash::platform::{self, Backend};

#[test]
fn env_var_selects_backend() {
    let Ok(value) = std::env::var("ARBORHASH_BACKEND") else {
        return;
    };
    let requested = Backend::from_name(&value).expect("scripts/test.sh sets a valid name");
    let sel = platform::selection();
    assert_eq!(sel.requested, Some(requested));
    assert!(sel.active.is_supported());
    if requested.is_supported() {
        assert_eq!(sel.active, requested);
    } else {
        assert!(sel.fell_back());
        assert_eq!(sel.active, platform::best_supported());
    }
}
