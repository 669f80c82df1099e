//! Kathleen Nichols' windowed min/max filter, as Linux's `lib/win_minmax.c`: BBR's bandwidth
//! filter keeps the largest delivery rate of the last ten round trips with it, in Linux's
//! integer units (`u32`, as `struct minmax_sample`).

/// Kathleen Nichols' windowed maximum, as Linux's `lib/win_minmax.c`: the best, second-best and
/// third-best samples of the window, spread over it, in constant space. A new maximum replaces
/// all three; as the window slides past the best, the second becomes the best.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct MaxFilter {
    /// (time, value), best first; times never decrease down the list.
    s: [(u64, u32); 3],
}

impl MaxFilter {
    /// The windowed maximum (zero before any sample).
    pub fn get(&self) -> u32 {
        self.s[0].1
    }

    /// Forgets everything but this sample (`minmax_reset`).
    pub fn reset(&mut self, t: u64, v: u32) -> u32 {
        self.s = [(t, v); 3];
        v
    }

    /// Adds a sample at time `t` and returns the maximum over `(t - win, t]`
    /// (`minmax_running_max`).
    pub fn update(&mut self, win: u64, t: u64, v: u32) -> u32 {
        let val = (t, v);
        if v >= self.s[0].1 || t.saturating_sub(self.s[2].0) > win {
            // A new maximum, or nothing left in the window.
            return self.reset(t, v);
        }
        if v >= self.s[1].1 {
            self.s[2] = val;
            self.s[1] = val;
        } else if v >= self.s[2].1 {
            self.s[2] = val;
        }
        self.subwin_update(win, val)
    }

    /// As time advances, update the 1st, 2nd and 3rd choices (`minmax_subwin_update`).
    fn subwin_update(&mut self, win: u64, val: (u64, u32)) -> u32 {
        let dt = val.0.saturating_sub(self.s[0].0);
        if dt > win {
            // The whole window passed without a new maximum: the 2nd choice becomes the best,
            // the 3rd the 2nd, and this sample the 3rd; once more if the 2nd is out too.
            self.s[0] = self.s[1];
            self.s[1] = self.s[2];
            self.s[2] = val;
            if val.0.saturating_sub(self.s[0].0) > win {
                self.s[0] = self.s[1];
                self.s[1] = self.s[2];
                self.s[2] = val;
            }
        } else if self.s[1].0 == self.s[0].0 && dt > win / 4 {
            // A quarter of the window without a new maximum: take a 2nd choice from the 2nd
            // quarter.
            self.s[2] = val;
            self.s[1] = val;
        } else if self.s[2].0 == self.s[1].0 && dt > win / 2 {
            // Half the window: take a 3rd choice from the last half.
            self.s[2] = val;
        }
        self.s[0].1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// BBR's window: ten round trips (`bbr_bw_rtts`).
    const WIN: u64 = 10;

    #[test]
    fn the_max_filter_keeps_the_max_for_ten_rounds_and_then_forgets_it() {
        let mut f = MaxFilter::default();
        assert_eq!(f.update(WIN, 1, 100), 100);
        for round in 2..=11 {
            assert_eq!(f.update(WIN, round, 50 + round as u32), 100, "{round}");
        }
        // Round 12: the 100 is eleven rounds old; the best left in the window takes over.
        let now = f.update(WIN, 12, 50);
        assert!((50..=62).contains(&now), "{now}");
        // A new maximum replaces everything at once.
        assert_eq!(f.update(WIN, 13, 70), 70);
        assert_eq!(f.update(WIN, 14, 10), 70);
    }

    #[test]
    fn the_max_filter_follows_a_falling_rate_within_a_window_or_so() {
        // Nichols' filter keeps 2nd and 3rd choices from later in the window, so a steadily
        // falling rate is tracked with at most one window's lag.
        let mut f = MaxFilter::default();
        for t in 0..100u64 {
            let v = 1000 - t as u32;
            let got = f.update(WIN, t, v);
            assert!(got >= v && got <= v + 2 * WIN as u32, "{t}: {got}");
        }
    }
}
