//! A value that crosses from the worker as its own postcard bytes and is read only where it is
//! shown.
//!
//! The page's first screen reads every reply of the simulator's worker, so whatever a reply's
//! fields take to decode is in the first screen's module: an explanation's reader, which only
//! the diagnosis shows, cost it several kilobytes. Sealed, the reply carries the explanation as
//! bytes, and [`Sealed::open`] runs its reader in the module of the view that calls it
//! (docs/performance.md, "What the page downloads").

use std::fmt;
use std::marker::PhantomData;

use serde::de::{DeserializeOwned, Deserializer, SeqAccess, Visitor};
use serde::{Deserialize, Serialize, Serializer};

use super::protocol::{read_answer, write_answer};

/// A `T` as postcard bytes.
pub struct Sealed<T> {
    bytes: Vec<u8>,
    of: PhantomData<fn() -> T>,
}

impl<T: Serialize> Sealed<T> {
    pub fn seal(value: &T) -> Result<Self, String> {
        write_answer(value).map(Sealed::from_bytes)
    }
}

impl<T: DeserializeOwned> Sealed<T> {
    /// The value, read where it is used.
    pub fn open(&self) -> Result<T, String> {
        read_answer(&self.bytes)
    }
}

impl<T> Sealed<T> {
    fn from_bytes(bytes: Vec<u8>) -> Self {
        Sealed {
            bytes,
            of: PhantomData,
        }
    }
}

// Not derived: a derive would ask `T` for what only the bytes need.
impl<T> Clone for Sealed<T> {
    fn clone(&self) -> Self {
        Sealed::from_bytes(self.bytes.clone())
    }
}

impl<T> PartialEq for Sealed<T> {
    fn eq(&self, other: &Self) -> bool {
        self.bytes == other.bytes
    }
}

impl<T> fmt::Debug for Sealed<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Sealed({} bytes)", self.bytes.len())
    }
}

impl<T> Serialize for Sealed<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(&self.bytes)
    }
}

impl<'de, T> Deserialize<'de> for Sealed<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Bytes;
        impl<'de> Visitor<'de> for Bytes {
            type Value = Vec<u8>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("bytes")
            }
            fn visit_bytes<E: serde::de::Error>(self, v: &[u8]) -> Result<Vec<u8>, E> {
                Ok(v.to_vec())
            }
            fn visit_byte_buf<E: serde::de::Error>(self, v: Vec<u8>) -> Result<Vec<u8>, E> {
                Ok(v)
            }
            // A self-describing format may write bytes as a list of numbers.
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<u8>, A::Error> {
                let mut v = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1 << 16));
                while let Some(b) = seq.next_element()? {
                    v.push(b);
                }
                Ok(v)
            }
        }
        d.deserialize_byte_buf(Bytes).map(Sealed::from_bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Inner {
        name: String,
        values: Vec<f64>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Outer {
        before: u32,
        inner: Option<Sealed<Inner>>,
        after: String,
    }

    #[test]
    fn a_sealed_value_crosses_inside_a_message_and_opens_as_it_was() {
        let inner = Inner {
            name: "cubic".into(),
            values: vec![1.5, -0.0, f64::MAX],
        };
        let outer = Outer {
            before: 7,
            inner: Some(Sealed::seal(&inner).expect("sealed")),
            after: "end".into(),
        };
        let bytes = postcard::to_allocvec(&outer).expect("written");
        let back: Outer = postcard::from_bytes(&bytes).expect("read");
        assert_eq!(back, outer);
        assert_eq!(back.inner.expect("kept").open().expect("opened"), inner);
    }

    #[test]
    fn bytes_that_are_not_the_value_open_to_an_error() {
        let sealed: Sealed<Inner> = Sealed::from_bytes(vec![200, 1]);
        let e = sealed.open().expect_err("not an Inner");
        assert!(e.contains("unreadable"), "{e}");
    }
}
