//! A player's webhook (`notify.rs`): he sets it at a turn-based table, and the
//! room posts to it when the table waits for him while no page of his is open
//! there, once per decision period (and again after a restart, as a reminder),
//! and when the turn's own time is over and his reserve runs.

use serde_json::json;
use tokio::time::Instant;

use protocol::{ErrorArgs, ErrorCode, ErrorReason};

use super::doc::WebhookDoc;
use super::live::Timer;
use super::{Refusal, Room, SeatDoc};
use crate::notify::{MAX_WEBHOOK_CHARS, Notice, time_low_line, your_turn_line};

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
        let accepts = |url: &str| {
            let notices = self.ctx.notices.as_ref();
            notices.is_some_and(|n| n.notifier.accepts(url))
        };
        let webhook = match url.as_deref().map(str::trim) {
            None | Some("") => None,
            Some(url) if accepts(url) => Some(WebhookDoc {
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
        let Some(live) = self.live.as_ref() else {
            return;
        };
        let period = live.state.awaiting().period;
        let told = self.notify_waiting(
            |live, i| live.notified.get(i) == Some(&Some(period)),
            your_turn_line,
            "your_turn",
        );
        if let Some(live) = self.live.as_mut() {
            for i in told {
                if let Some(slot) = live.notified.get_mut(i) {
                    *slot = Some(period);
                }
            }
        }
    }

    /// When the current period's turn time is over and the reserves run: the
    /// moment to tell the awaited players' webhooks their time runs low
    /// (none once told, or at a table without reserves or webhooks).
    pub(super) fn low_time_at(&self) -> Option<Instant> {
        self.ctx.notices.as_ref()?;
        let live = self.live.as_ref()?;
        let period = live.state.awaiting().period;
        if live.low_told == Some(period) || live.state.outcome().is_some() {
            return None;
        }
        let bank = live.clocks.as_ref()?.largest_bank_ms();
        let timer = live.timer.as_ref().filter(|t| t.period == period)?;
        (bank > 0).then(|| timer.deadline - std::time::Duration::from_millis(bank))
    }

    pub(super) fn on_low_time(&mut self) {
        let Some(live) = self.live.as_mut() else {
            return;
        };
        let period = live.state.awaiting().period;
        live.low_told = Some(period);
        self.notify_waiting(
            |_, _| false,
            |lang, game, link, left| time_low_line(lang, game, link, left.unwrap_or(0)),
            "time_low",
        );
    }

    /// Hands a notice to the webhook of each seat the table waits for whose
    /// player has no page open here, unless `skip` says so; the seats told.
    fn notify_waiting(
        &self,
        skip: impl Fn(&super::live::Live, usize) -> bool,
        line: impl Fn(&str, &str, &str, Option<u64>) -> String,
        event: &str,
    ) -> Vec<usize> {
        let mut told = Vec::new();
        let Some(notices) = self.ctx.notices.as_ref() else {
            return told;
        };
        let Some(live) = self.live.as_ref() else {
            return told;
        };
        if self.doc.settings.time_bank_seconds.is_none() || live.state.outcome().is_some() {
            return told;
        }
        let awaiting = live.state.awaiting();
        let left_ms = live.timer.as_ref().map(Timer::left_ms);
        let link = match &notices.public_url {
            Some(base) => format!("{base}/t/{}", self.invite_code),
            None => format!("/t/{}", self.invite_code),
        };
        for &seat in &awaiting.seats {
            let i = usize::from(seat);
            if skip(live, i) {
                continue;
            }
            let Some(SeatDoc::Human { token_hash, .. }) = self.doc.seats.get(i) else {
                continue;
            };
            if self.has_page(token_hash) {
                continue;
            }
            let Some(webhook) = self.doc.player(token_hash).and_then(|p| p.webhook.as_ref()) else {
                continue;
            };
            let notice = Notice {
                table: self.id,
                url: webhook.url.clone(),
                line: line(&webhook.lang, self.kind.name(), &link, left_ms),
                event: json!({
                    "event": event,
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
        told
    }
}
