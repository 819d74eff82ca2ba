//! The two protobuf messages of a checkpoint index, decoded by hand (wire format: varint,
//! fixed64, length-delimited, fixed32): `BundleHeaderProto` and `BundleEntryProto`
//! (tensorflow/core/protobuf/tensor_bundle.proto). Zero-valued fields are absent on the wire.

use crate::index::varint;

/// The element types a checkpoint of a Keras model holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DType {
    Float32,
    Int64,
    String,
    /// Any other `DataType` number (readable as bytes only).
    Other(u64),
}

impl DType {
    fn from_code(c: u64) -> DType {
        match c {
            1 => DType::Float32,
            9 => DType::Int64,
            7 => DType::String,
            c => DType::Other(c),
        }
    }
}

/// Where a variable's bytes are and how to check them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub dtype: DType,
    pub shape: Vec<usize>,
    pub shard_id: u64,
    pub offset: u64,
    pub size: u64,
    /// Masked CRC32C of the bytes.
    pub crc32c: u32,
    /// A partitioned variable (`slices` present): not read.
    pub sliced: bool,
}

impl Entry {
    /// The number of elements (1 for a scalar), None on overflow.
    pub fn elements(&self) -> Option<usize> {
        self.shape.iter().try_fold(1usize, |a, &d| a.checked_mul(d))
    }

    pub(crate) fn decode(b: &[u8]) -> Result<Entry, String> {
        let mut e = Entry {
            dtype: DType::Other(0),
            shape: Vec::new(),
            shard_id: 0,
            offset: 0,
            size: 0,
            crc32c: 0,
            sliced: false,
        };
        for field in Fields::new(b) {
            match field? {
                (1, Value::Varint(v)) => e.dtype = DType::from_code(v),
                (2, Value::Bytes(s)) => e.shape = shape(s)?,
                (3, Value::Varint(v)) => e.shard_id = v,
                (4, Value::Varint(v)) => e.offset = v,
                (5, Value::Varint(v)) => e.size = v,
                (6, Value::Fixed32(v)) => e.crc32c = v,
                (7, _) => e.sliced = true,
                (1..=7, _) => {
                    return Err("a field of BundleEntryProto has the wrong wire type".into())
                }
                _ => {}
            }
        }
        Ok(e)
    }
}

/// `TensorShapeProto`: repeated `dim` (field 2) of `{size: 1, name: 2}`; unknown rank refused.
fn shape(b: &[u8]) -> Result<Vec<usize>, String> {
    let mut dims = Vec::new();
    for field in Fields::new(b) {
        match field? {
            (2, Value::Bytes(d)) => {
                let mut size = 0u64;
                for f in Fields::new(d) {
                    if let (1, Value::Varint(v)) = f? {
                        size = v;
                    }
                }
                // a negative size (unknown dimension) arrives as a 10-byte varint > i64::MAX
                let size = usize::try_from(size)
                    .ok()
                    .filter(|&s| s <= 1 << 40)
                    .ok_or_else(|| format!("dimension {} is unknown or too large", size as i64))?;
                dims.push(size);
            }
            (3, Value::Varint(1)) => return Err("unknown rank".into()),
            _ => {}
        }
    }
    Ok(dims)
}

/// `BundleHeaderProto`: the number of shards and the byte order.
pub(crate) struct Header {
    pub num_shards: u64,
    pub big_endian: bool,
}

impl Header {
    pub(crate) fn decode(b: &[u8]) -> Result<Header, String> {
        let mut h = Header {
            num_shards: 0,
            big_endian: false,
        };
        for field in Fields::new(b) {
            match field? {
                (1, Value::Varint(v)) => h.num_shards = v,
                (2, Value::Varint(v)) => h.big_endian = v == 1,
                _ => {}
            }
        }
        Ok(h)
    }
}

enum Value<'a> {
    Varint(u64),
    /// A fixed64 field: skipped (no field of these messages has that wire type).
    Fixed64,
    Bytes(&'a [u8]),
    Fixed32(u32),
}

/// The (field number, value) pairs of a message.
struct Fields<'a> {
    b: &'a [u8],
    pos: usize,
}

impl<'a> Fields<'a> {
    fn new(b: &'a [u8]) -> Self {
        Fields { b, pos: 0 }
    }
}

impl<'a> Iterator for Fields<'a> {
    type Item = Result<(u64, Value<'a>), String>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.pos >= self.b.len() {
            return None;
        }
        let bad = |what: &str| Some(Err(format!("malformed protobuf ({what})")));
        let Some(key) = varint(self.b, &mut self.pos) else {
            self.pos = self.b.len();
            return bad("field key");
        };
        let (field, wire) = (key >> 3, key & 7);
        let value = match wire {
            0 => varint(self.b, &mut self.pos).map(Value::Varint),
            1 => self.take(8).map(|_| Value::Fixed64),
            2 => varint(self.b, &mut self.pos)
                .and_then(|n| usize::try_from(n).ok())
                .and_then(|n| self.take(n))
                .map(Value::Bytes),
            5 => self
                .take(4)
                .map(|s| Value::Fixed32(u32::from_le_bytes([s[0], s[1], s[2], s[3]]))),
            _ => None,
        };
        match value {
            Some(v) => Some(Ok((field, v))),
            None => {
                self.pos = self.b.len();
                bad("field value")
            }
        }
    }
}

impl<'a> Fields<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let end = self.pos.checked_add(n)?;
        let s = self.b.get(self.pos..end)?;
        self.pos = end;
        Some(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entry_decodes_by_hand() {
        // dtype 1 (float), shape [3, 2], offset 16, size 24, crc 0x01020304
        let shape = [0x12, 0x02, 0x08, 0x03, 0x12, 0x02, 0x08, 0x02];
        let mut b = vec![0x08, 0x01, 0x12, shape.len() as u8];
        b.extend_from_slice(&shape);
        b.extend_from_slice(&[0x20, 0x10, 0x28, 0x18, 0x35, 0x04, 0x03, 0x02, 0x01]);
        let e = Entry::decode(&b).unwrap();
        assert_eq!(e.dtype, DType::Float32);
        assert_eq!(e.shape, vec![3, 2]);
        assert_eq!(
            (e.offset, e.size, e.crc32c, e.shard_id),
            (16, 24, 0x0102_0304, 0)
        );
        assert_eq!(e.elements(), Some(6));
        assert!(!e.sliced);
        // truncated: an error, not a panic
        assert!(Entry::decode(&b[..b.len() - 2]).is_err());
    }

    #[test]
    fn masked_crc_matches_tensorflow() {
        // crc32c("123456789") = 0xe3069283 (the CRC-32C check value); TensorFlow's mask,
        // ((c >> 15) | (c << 17)) + 0xa282ead8 mod 2³², worked out in Python: 0xc78ab0e5
        let c = crc32c::crc32c(b"123456789");
        assert_eq!(c, 0xe306_9283);
        assert_eq!(crate::mask_crc(c), 0xc78a_b0e5);
    }
}
