//! big-city rules (in progress).
