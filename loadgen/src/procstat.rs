//! The server process as the kernel sees it: CPU seconds from `/proc/<pid>/stat`,
//! resident memory from `/proc/<pid>/status`, and the process listening on a port
//! (from `/proc/net/tcp` and each process's open sockets).

use std::fs;

/// CPU time and memory of one process at one moment.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Sample {
    /// User plus system CPU seconds since the process started.
    pub cpu_seconds: f64,
    /// Resident set size in kibibytes.
    pub rss_kib: u64,
}

fn clock_ticks() -> f64 {
    // SAFETY: sysconf has no preconditions; it only reads a configuration value.
    let t = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    if t > 0 { t as f64 } else { 100.0 }
}

/// Parses utime + stime (fields 14 and 15) out of a `/proc/<pid>/stat` line.
/// The command name (field 2) may contain spaces and parentheses, so fields are
/// counted from the last `)`.
pub fn parse_stat_ticks(stat: &str) -> Option<u64> {
    let rest = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // rest starts at field 3 (state): utime is field 14 → index 11.
    let utime: u64 = fields.get(11)?.parse().ok()?;
    let stime: u64 = fields.get(12)?.parse().ok()?;
    Some(utime + stime)
}

/// Parses `VmRSS:` (in kB) out of `/proc/<pid>/status`.
pub fn parse_status_rss(status: &str) -> Option<u64> {
    status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

/// Samples a process; `None` if it is gone.
pub fn sample(pid: u32) -> Option<Sample> {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let status = fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    Some(Sample {
        cpu_seconds: parse_stat_ticks(&stat)? as f64 / clock_ticks(),
        rss_kib: parse_status_rss(&status)?,
    })
}

/// Sums CPU seconds and RSS over several processes (those that are gone count 0).
pub fn sample_all(pids: &[u32]) -> Sample {
    pids.iter()
        .filter_map(|&p| sample(p))
        .fold(Sample::default(), |a, s| Sample {
            cpu_seconds: a.cpu_seconds + s.cpu_seconds,
            rss_kib: a.rss_kib + s.rss_kib,
        })
}

/// Every process whose parent is `pid` (e.g. the backends of a Postgres postmaster).
pub fn children(pid: u32) -> Vec<u32> {
    let Ok(dir) = fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|&p| {
            fs::read_to_string(format!("/proc/{p}/stat"))
                .ok()
                .and_then(|s| {
                    let rest = s[s.rfind(')')? + 1..].to_owned();
                    rest.split_whitespace().nth(1)?.parse::<u32>().ok()
                })
                == Some(pid)
        })
        .collect()
}

/// The inode of the socket listening on `port` (any address), from `/proc/net/tcp`
/// and `/proc/net/tcp6` (state 0A is LISTEN).
fn listening_inode(port: u16) -> Option<u64> {
    for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
        let Ok(text) = fs::read_to_string(table) else {
            continue;
        };
        for line in text.lines().skip(1) {
            let f: Vec<&str> = line.split_whitespace().collect();
            let (Some(local), Some(state), Some(inode)) = (f.get(1), f.get(3), f.get(9)) else {
                continue;
            };
            let Some(hex_port) = local.rsplit(':').next() else {
                continue;
            };
            if *state == "0A" && u16::from_str_radix(hex_port, 16).ok() == Some(port) {
                return inode.parse().ok();
            }
        }
    }
    None
}

/// The process listening on `port`, found through its open file descriptors.
pub fn pid_listening_on(port: u16) -> Option<u32> {
    let inode = listening_inode(port)?;
    let target = format!("socket:[{inode}]");
    for entry in fs::read_dir("/proc").ok()?.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|s| s.parse::<u32>().ok())
        else {
            continue;
        };
        let Ok(fds) = fs::read_dir(format!("/proc/{pid}/fd")) else {
            continue;
        };
        for fd in fds.flatten() {
            if fs::read_link(fd.path())
                .ok()
                .is_some_and(|l| l.to_string_lossy() == target)
            {
                return Some(pid);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stat_fields_are_counted_after_the_command_name() {
        let line = "1234 (my (odd) cmd) S 1 1234 1234 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 4 0 100 1000 200";
        assert_eq!(parse_stat_ticks(line), Some(300));
        assert_eq!(parse_stat_ticks("garbage"), None);
    }

    #[test]
    fn rss_from_status() {
        let status = "Name:\tx\nVmPeak:\t  9000 kB\nVmRSS:\t    4242 kB\nThreads: 3\n";
        assert_eq!(parse_status_rss(status), Some(4242));
        assert_eq!(parse_status_rss("Name: x\n"), None);
    }

    #[test]
    fn this_process_can_be_sampled() {
        let s = sample(std::process::id()).expect("own /proc entry");
        assert!(s.rss_kib > 0);
    }
}
