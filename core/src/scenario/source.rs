//! Where an experiment comes from, as the page tells its reader: a preset's or a lesson's
//! source line names the post it reproduces by that post's own title, or the paper or RFC it
//! follows, never the docs' shorthand ("seed 003") that a reader of the page cannot look up.

use crate::player::explain::Text;
use crate::player::Language;

/// One of the five posts the lab's experiments reproduce (the docs' seeds 000 to 004, in that
/// order).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Post {
    /// Random loss against throughput and the Mathis formula (seed 000).
    LossRate,
    /// Head-of-line blocking of messages on one connection (seed 001).
    HeadOfLine,
    /// Reno, CUBIC and BBR compared (seed 002).
    Algorithms,
    /// "Ping is 28 ms: why does one POST reach 1.8 MB/s?" (seed 003).
    SlowPost,
    /// Evaluating a TCP/IP stack simulator: seeds, metrics, the A/B matrix (seed 004).
    Simulator,
}

impl Post {
    /// Every post, in the docs' order.
    pub const ALL: [Post; 5] = [
        Post::LossRate,
        Post::HeadOfLine,
        Post::Algorithms,
        Post::SlowPost,
        Post::Simulator,
    ];

    /// The docs' name for it: `seed 003` is [`Post::SlowPost`].
    pub const fn seed(self) -> u8 {
        self as u8
    }

    /// The post named for the page, by its title (the posts are in Chinese; the English is
    /// their title translated). The fifth has no title line of its own and is named by its
    /// subject.
    pub const fn title(self) -> Text {
        match self {
            Post::LossRate => Text::new(
                "the post “How loss rate affects TCP throughput, measured with injected delay \
                 and loss”",
                "文章《丢包率对 TCP 吞吐的影响：用延迟与丢包注入实测》",
            ),
            Post::HeadOfLine => Text::new(
                "the post “TCP head-of-line blocking: one packet lost, and all later data waits”",
                "文章《TCP 队头阻塞：一个包丢了，后面的数据都在等》",
            ),
            Post::Algorithms => Text::new(
                "the post “Congestion control 2: how Reno, CUBIC and BBR behave differently”",
                "文章《拥塞控制 2：Reno、CUBIC、BBR 的行为差异》",
            ),
            Post::SlowPost => Text::new(
                "the post “Ping is 28 ms: why does a single TCP POST reach only 1.8 MB/s?”",
                "文章《Ping 28 ms，为什么单 TCP POST 只有 1.8 MB/s？》",
            ),
            Post::Simulator => Text::new(
                "a post on evaluating and tuning a TCP/IP stack simulator",
                "一篇关于 TCP/IP 协议栈仿真性能评估与优化的文章",
            ),
        }
    }
}

/// Where a preset's or a lesson's experiment comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// One of the five posts, reproduced.
    Post(Post),
    /// A paper, an RFC or the lab's own staging.
    Other(Text),
}

impl Source {
    /// The source as the page writes it after "Source:".
    pub fn words(self, lang: Language) -> &'static str {
        match self {
            Source::Post(post) => post.title(),
            Source::Other(text) => text,
        }
        .get(lang)
    }

    /// The post it reproduces, if it is one of the five.
    pub fn post(self) -> Option<Post> {
        match self {
            Source::Post(post) => Some(post),
            Source::Other(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_posts_are_numbered_as_the_docs_seeds_and_named_apart() {
        for (i, post) in Post::ALL.into_iter().enumerate() {
            assert_eq!(usize::from(post.seed()), i);
            for lang in [Language::En, Language::Zh] {
                let words = post.title().get(lang);
                assert!(!words.is_empty());
                assert!(
                    !words.contains("seed") && !words.contains("种子"),
                    "{words}: a reader cannot look up the docs' seeds"
                );
                let others = Post::ALL
                    .iter()
                    .filter(|p| p.title().get(lang) == words)
                    .count();
                assert_eq!(others, 1, "{words} names one post");
            }
        }
    }
}
