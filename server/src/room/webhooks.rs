//! A player's webhook (`notify.rs`): he sets it at a turn-based table, and the
//! room posts to it when the table waits for him while no page of his is open
//! there, once per decision period (and again after a restart, as a reminder).

use serde_json::json;
use tokio::time::Instant;

use protocol::{ErrorArgs, ErrorCode, ErrorReason};

use super::doc::WebhookDoc;
use super::{Refusal, Room, SeatDoc};
use crate::notify::{MAX_WEBHOOK_CHARS, Notice, webhook_allowed, your_turn_line};

impl Room {
    pub(super) async fn on_set_webhook(
        &mut self,
        conn: u64,
        url: Option<String>,
        lang: Option<String>,
    ) -> Result<(), Refusal> {
        self.require_seat(conn)?;
        let hash = self
            .conn_player(conn)
            .ok_or(Refusal::new(ErrorCode::NotSeated))?;
        let allow_http = self.ctx.notices.as_ref().is_some_and(|n| n.allow_http);
        let refused = || {
            Refusal::with(
                ErrorCode::BadSettings,
                ErrorArgs {
                    max_chars: u32::try_from(MAX_WEBHOOK_CHARS).ok(),
                    ..ErrorArgs::reason(ErrorReason::Webhook)
                },
            )
        };
        if self.doc.settings.time_bank_seconds.is_none() {
            return Err(refused());
        }
        let webhook = match url.as_deref().map(str::trim) {
            None | Some("") => None,
            Some(url) if webhook_allowed(url, allow_http) => Some(WebhookDoc {
                url: url.to_owned(),
                lang: if lang.as_deref() == Some("fr") {
                    "fr"
                } else {
                    "en"
                }
                .to_owned(),
            }),
            Some(_) => return Err(refused()),
        };
        let mut doc = self.doc.clone();
        if let Some(player) = doc.players.iter_mut().find(|p| p.token_hash == hash) {
            player.webhook = webhook;
        }
        self.save_doc(doc).await?;
        self.rewelcome_player(&hash);
        Ok(())
    }

    /// Posts to the webhooks of the players the table waits for who have no
    /// page open here, once for each decision period.
    pub(super) fn notify_turns(&mut self) {
        let Some(notices) = self.ctx.notices.clone() else {
            return;
        };
        let Some(live) = self.live.as_ref() else {
            return;
        };
        if self.doc.settings.time_bank_seconds.is_none() || live.state.outcome().is_some() {
            return;
        }
        let awaiting = live.state.awaiting();
        let left_ms = live.timer.as_ref().map(|t| {
            u64::try_from(
                t.deadline
                    .saturating_duration_since(Instant::now())
                    .as_millis(),
            )
            .unwrap_or(u64::MAX)
        });
        let link = match &notices.public_url {
            Some(base) => format!("{base}/t/{}", self.invite_code),
            None => format!("/t/{}", self.invite_code),
        };
        let mut told = Vec::new();
        for &seat in &awaiting.seats {
            let i = usize::from(seat);
            if live.notified.get(i) == Some(&Some(awaiting.period)) {
                continue;
            }
            let Some(SeatDoc::Human { token_hash, .. }) = self.doc.seats.get(i) else {
                continue;
            };
            if self
                .conns
                .values()
                .any(|c| c.player.as_deref() == Some(token_hash))
            {
                continue;
            }
            let Some(webhook) = self
                .doc
                .players
                .iter()
                .find(|p| &p.token_hash == token_hash)
                .and_then(|p| p.webhook.as_ref())
            else {
                continue;
            };
            let notice = Notice {
                table: self.id,
                url: webhook.url.clone(),
                line: your_turn_line(&webhook.lang, self.kind.name(), &link, left_ms),
                event: json!({
                    "event": "your_turn",
                    "game": self.kind.id(),
                    "table": self.invite_code,
                    "seat": seat,
                    "time_left_ms": left_ms,
                    "link": link,
                }),
            };
            if notices.notifier.send(notice) {
                told.push(i);
            }
        }
        if let Some(live) = self.live.as_mut() {
            for i in told {
                if let Some(slot) = live.notified.get_mut(i) {
                    *slot = Some(awaiting.period);
                }
            }
        }
    }
}
