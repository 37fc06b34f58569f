//! The client message decoder never panics; whatever decodes re-encodes to the
//! same message.
#![no_main]

use libfuzzer_sys::fuzz_target;
use protocol::ClientMsg;

fuzz_target!(|data: &[u8]| {
    if let Ok(msg) = serde_json::from_slice::<ClientMsg>(data) {
        let again = serde_json::to_vec(&msg).expect("encodes");
        let back: ClientMsg = serde_json::from_slice(&again).expect("decodes again");
        assert_eq!(back, msg);
    }
});
