//! my-city rules (in progress).
