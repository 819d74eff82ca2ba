//! `tfckpt`: reads TensorFlow 2 checkpoints (the V2 "bundle" format) without TensorFlow.
//!
//! A checkpoint `PREFIX` is `PREFIX.index`, a LevelDB-style sorted table whose key `""` holds a
//! `BundleHeaderProto` and whose every other key names a variable with a `BundleEntryProto`
//! (dtype, shape, shard, offset, size, masked CRC32C), and `PREFIX.data-0000k-of-0000n`, the raw
//! little-endian row-major bytes. [`Checkpoint::open`] reads and checks the whole index (block
//! CRCs, footer magic, header); [`Checkpoint::tensor`] reads one variable and checks its CRC32C.
//! What it does not support — compressed blocks, more than one shard, big-endian checkpoints,
//! partitioned (sliced) variables, dtypes other than float32, int64 and string — is refused with
//! an error naming the file or the variable, never guessed.

mod index;
mod proto;

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

pub use proto::{DType, Entry};

/// What can go wrong, naming the file or the variable.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{}: {io}", path.display())]
    Io { path: PathBuf, io: std::io::Error },
    #[error("{}: {detail}", path.display())]
    Format { path: PathBuf, detail: String },
    #[error("{}: variable {name}: {detail}", path.display())]
    Variable {
        path: PathBuf,
        name: String,
        detail: String,
    },
    #[error("{}: not supported: {detail}", path.display())]
    Unsupported { path: PathBuf, detail: String },
}

pub type Result<T> = std::result::Result<T, Error>;

/// A tensor read from a checkpoint.
#[derive(Debug, Clone, PartialEq)]
pub struct Tensor<T> {
    pub shape: Vec<usize>,
    pub data: Vec<T>,
}

/// An opened checkpoint: its index, every entry by name.
#[derive(Debug, Clone)]
pub struct Checkpoint {
    index_path: PathBuf,
    data_path: PathBuf,
    entries: BTreeMap<String, Entry>,
    data_len: u64,
}

/// TensorFlow's masked CRC32C (`crc32c.h`): rotate right by 15 and add a constant, so that a
/// CRC stored inside CRC-checked data does not look like one.
pub fn mask_crc(crc: u32) -> u32 {
    crc.rotate_right(15).wrapping_add(0xa282_ead8)
}

/// An index larger than this is not a checkpoint's (the published ones are a few kB).
const MAX_INDEX: u64 = 256 << 20;

/// The index file's bytes: a regular file of at most [`MAX_INDEX`] bytes, never a FIFO or a
/// device.
fn read_index(path: &Path) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let m = fs::metadata(path)?;
    if !m.is_file() || m.len() > MAX_INDEX {
        return Err(std::io::Error::other(format!(
            "not a regular file of at most {MAX_INDEX} bytes"
        )));
    }
    let mut bytes = Vec::new();
    fs::File::open(path)?
        .take(MAX_INDEX)
        .read_to_end(&mut bytes)?;
    Ok(bytes)
}

impl Checkpoint {
    /// Opens `PREFIX` (`PREFIX.index` and its one data shard), checking the index's block CRCs,
    /// footer, header, and that every entry lies inside the data file.
    pub fn open(prefix: &Path) -> Result<Checkpoint> {
        let index_path = with_suffix(prefix, ".index");
        let bytes = read_index(&index_path).map_err(|io| Error::Io {
            path: index_path.clone(),
            io,
        })?;
        let fail = |detail: String| Error::Format {
            path: index_path.clone(),
            detail,
        };
        let table = index::read_table(&bytes).map_err(|e| match e {
            index::TableError::Unsupported(d) => Error::Unsupported {
                path: index_path.clone(),
                detail: d,
            },
            index::TableError::Format(d) => fail(d),
        })?;
        let mut entries = BTreeMap::new();
        let mut header = None;
        for (key, value) in table {
            if key.is_empty() {
                header = Some(proto::Header::decode(&value).map_err(&fail)?);
                continue;
            }
            let name =
                String::from_utf8(key).map_err(|_| fail("a variable name is not UTF-8".into()))?;
            let entry = proto::Entry::decode(&value).map_err(|d| Error::Variable {
                path: index_path.clone(),
                name: name.clone(),
                detail: d,
            })?;
            entries.insert(name, entry);
        }
        let header = header.ok_or_else(|| fail("no header entry (key \"\")".into()))?;
        if header.num_shards != 1 {
            return Err(Error::Unsupported {
                path: index_path,
                detail: format!("{} data shards (one is read)", header.num_shards),
            });
        }
        if header.big_endian {
            return Err(Error::Unsupported {
                path: index_path,
                detail: "a big-endian checkpoint".into(),
            });
        }
        let data_path = with_suffix(prefix, ".data-00000-of-00001");
        let data_len = fs::metadata(&data_path)
            .map_err(|io| Error::Io {
                path: data_path.clone(),
                io,
            })?
            .len();
        for (name, e) in &entries {
            if e.shard_id != 0 || e.sliced {
                return Err(Error::Unsupported {
                    path: index_path,
                    detail: format!("variable {name} is partitioned or in another shard"),
                });
            }
            if e.offset
                .checked_add(e.size)
                .is_none_or(|end| end > data_len)
            {
                return Err(Error::Variable {
                    path: index_path,
                    name: name.clone(),
                    detail: format!(
                        "bytes {}..{} lie outside the data file of {data_len} bytes",
                        e.offset,
                        e.offset.saturating_add(e.size)
                    ),
                });
            }
        }
        Ok(Checkpoint {
            index_path,
            data_path,
            entries,
            data_len,
        })
    }

    /// The `.index` file.
    pub fn index_path(&self) -> &Path {
        &self.index_path
    }

    /// The data shard.
    pub fn data_path(&self) -> &Path {
        &self.data_path
    }

    /// Every variable, by name (sorted).
    pub fn entries(&self) -> &BTreeMap<String, Entry> {
        &self.entries
    }

    /// The size of the data shard, in bytes.
    pub fn data_len(&self) -> u64 {
        self.data_len
    }

    /// The raw bytes of one variable, their CRC32C checked.
    pub fn bytes(&self, name: &str) -> Result<Vec<u8>> {
        let e = self.entry(name)?;
        let mut f = fs::File::open(&self.data_path).map_err(|io| Error::Io {
            path: self.data_path.clone(),
            io,
        })?;
        use std::io::{Read, Seek, SeekFrom};
        let mut buf = vec![0u8; e.size as usize];
        f.seek(SeekFrom::Start(e.offset))
            .and_then(|_| f.read_exact(&mut buf))
            .map_err(|io| Error::Io {
                path: self.data_path.clone(),
                io,
            })?;
        let got = match e.dtype {
            DType::String => string_crc(&buf, e.elements().unwrap_or(0))
                .map(mask_crc)
                .ok_or_else(|| self.var_error(name, "malformed string tensor".into()))?,
            _ => mask_crc(crc32c::crc32c(&buf)),
        };
        if got != e.crc32c {
            return Err(Error::Variable {
                path: self.data_path.clone(),
                name: name.into(),
                detail: format!(
                    "CRC32C mismatch (index {:#010x}, data {got:#010x}): the data file is corrupt",
                    e.crc32c
                ),
            });
        }
        Ok(buf)
    }

    /// A float32 variable, CRC checked, its byte count checked against its shape.
    pub fn tensor(&self, name: &str) -> Result<Tensor<f32>> {
        let e = self.entry(name)?;
        if e.dtype != DType::Float32 {
            return Err(self.var_error(name, format!("dtype {:?}, not float32", e.dtype)));
        }
        let n = e
            .elements()
            .ok_or_else(|| self.var_error(name, "shape too large".into()))?;
        if e.size != n as u64 * 4 {
            return Err(self.var_error(
                name,
                format!("{} bytes for shape {:?} of float32", e.size, e.shape),
            ));
        }
        let bytes = self.bytes(name)?;
        let data = bytes
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        Ok(Tensor {
            shape: e.shape.clone(),
            data,
        })
    }

    /// The variables as `ich checkpoint` lists them: one line each (name, dtype, shape) for the
    /// model's variables, or for all with `all`, and a closing line with the counts; `checked`
    /// is what [`Checkpoint::verify`] returned.
    pub fn listing(&self, all: bool, checked: usize) -> String {
        let mut out = String::new();
        let (mut shown, mut values) = (0, 0usize);
        for (name, e) in &self.entries {
            let model = is_model_variable(name);
            if model {
                values += e.elements().unwrap_or(0);
            }
            if all || model {
                out += &format!("{name}\t{:?}\t{:?}\n", e.dtype, e.shape);
                shown += 1;
            }
        }
        out + &format!(
            "{} variables ({shown} shown; {values} model values), {} data bytes, every CRC32C checked ({checked} entries)",
            self.entries.len(),
            self.data_len
        )
    }

    /// Reads every variable once: every CRC32C checked. Returns how many were read.
    pub fn verify(&self) -> Result<usize> {
        for name in self.entries.keys() {
            self.bytes(name)?;
        }
        Ok(self.entries.len())
    }

    fn entry(&self, name: &str) -> Result<&Entry> {
        self.entries
            .get(name)
            .ok_or_else(|| self.var_error(name, "no such variable".into()))
    }

    fn var_error(&self, name: &str, detail: String) -> Error {
        Error::Variable {
            path: self.index_path.clone(),
            name: name.into(),
            detail,
        }
    }
}

/// The CRC32C TensorFlow records for a string tensor (`WriteStringTensor` in tensor_bundle.cc):
/// the bytes hold n varint lengths, a 4-byte checksum of them, then the strings; the CRC runs over
/// each length as a little-endian u32 (u64 above 2³² − 1; not its varint bytes), the 4 checksum
/// bytes, then the strings.
fn string_crc(buf: &[u8], n: usize) -> Option<u32> {
    let mut pos = 0;
    let mut crc = 0u32;
    let mut total = 0usize;
    for _ in 0..n {
        let len = index::varint(buf, &mut pos)?;
        crc = match u32::try_from(len) {
            Ok(l) => crc32c::crc32c_append(crc, &l.to_le_bytes()),
            Err(_) => crc32c::crc32c_append(crc, &len.to_le_bytes()),
        };
        total = total.checked_add(usize::try_from(len).ok()?)?;
    }
    let check = buf.get(pos..pos + 4)?;
    crc = crc32c::crc32c_append(crc, check);
    let strings = buf.get(pos + 4..)?;
    if strings.len() != total {
        return None;
    }
    Some(crc32c::crc32c_append(crc, strings))
}

fn with_suffix(prefix: &Path, suffix: &str) -> PathBuf {
    let mut s = prefix.as_os_str().to_os_string();
    s.push(suffix);
    PathBuf::from(s)
}

/// Whether a variable is one of the model's layers, not an optimiser slot, a step counter or the
/// object graph (TensorFlow 2's object-based names).
pub fn is_model_variable(name: &str) -> bool {
    name.starts_with("layer_with_weights-") && !name.contains("OPTIMIZER_SLOT")
}

/// Encodes a float32 tensor as NumPy `.npy` (format 1.0, little endian, C order), e.g. to hand
/// the weights to another framework for a side-by-side check.
pub fn npy_f32(t: &Tensor<f32>) -> Vec<u8> {
    let shape = match t.shape.len() {
        1 => format!("({},)", t.shape[0]),
        _ => format!(
            "({})",
            t.shape
                .iter()
                .map(|d| d.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    let mut header = format!("{{'descr': '<f4', 'fortran_order': False, 'shape': {shape}, }}");
    // magic (6) + version (2) + length (2) + header + '\n' is a multiple of 64
    let pad = (64 - (10 + header.len() + 1) % 64) % 64;
    header.push_str(&" ".repeat(pad));
    header.push('\n');
    let mut out = Vec::with_capacity(10 + header.len() + 4 * t.data.len());
    out.extend_from_slice(b"\x93NUMPY\x01\x00");
    out.extend_from_slice(&(header.len() as u16).to_le_bytes());
    out.extend_from_slice(header.as_bytes());
    for v in &t.data {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out
}

#[cfg(test)]
mod npy_tests {
    use super::*;

    /// The bytes NumPy writes for `np.save(f, np.array([[1, 2], [3, 4]], dtype='<f4'))`.
    #[test]
    fn npy_header_as_numpy_writes_it() {
        let b = npy_f32(&Tensor {
            shape: vec![2, 2],
            data: vec![1.0, 2.0, 3.0, 4.0],
        });
        assert_eq!(&b[..8], b"\x93NUMPY\x01\x00");
        let hl = u16::from_le_bytes([b[8], b[9]]) as usize;
        assert_eq!((10 + hl) % 64, 0);
        let h = std::str::from_utf8(&b[10..10 + hl]).unwrap();
        assert!(h.starts_with("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }"));
        assert!(h.ends_with('\n'));
        assert_eq!(&b[10 + hl..10 + hl + 4], &1f32.to_le_bytes());
        assert_eq!(b.len(), 10 + hl + 16);
        let one = npy_f32(&Tensor {
            shape: vec![3],
            data: vec![0.0; 3],
        });
        let hl = u16::from_le_bytes([one[8], one[9]]) as usize;
        let h = std::str::from_utf8(&one[10..10 + hl]).unwrap();
        assert!(h.contains("'shape': (3,)"), "{h}");
    }
}
