//! The `.index` file: a LevelDB-style sorted table (TensorFlow's `core/lib/io/table`). A 48-byte
//! footer holds the metaindex and index block handles (varints) and the magic number; the index
//! block maps the last key of each data block to that block's handle; every block is followed by
//! a 5-byte trailer (compression type, masked CRC32C of the block and that byte). Every length and
//! offset is checked against the bytes present: a hostile index is an error, never a panic.

use crate::mask_crc;

/// A key and its value.
pub(crate) type Kv = (Vec<u8>, Vec<u8>);

pub(crate) enum TableError {
    Format(String),
    Unsupported(String),
}

const MAGIC: u64 = 0xdb47_7524_8b80_fb57;
const FOOTER: usize = 48;

fn format<T>(s: impl Into<String>) -> Result<T, TableError> {
    Err(TableError::Format(s.into()))
}

/// A LevelDB varint (7 bits per byte, little-endian groups), at most 10 bytes.
pub(crate) fn varint(b: &[u8], pos: &mut usize) -> Option<u64> {
    let mut v = 0u64;
    for shift in (0..70).step_by(7) {
        let byte = *b.get(*pos)?;
        *pos += 1;
        if shift == 63 && byte > 1 {
            return None;
        }
        v |= u64::from(byte & 0x7f) << shift;
        if byte & 0x80 == 0 {
            return Some(v);
        }
    }
    None
}

/// The (offset, size) of a block.
fn handle(b: &[u8], pos: &mut usize) -> Option<(usize, usize)> {
    let off = usize::try_from(varint(b, pos)?).ok()?;
    let size = usize::try_from(varint(b, pos)?).ok()?;
    Some((off, size))
}

/// A block's contents, its trailer checked.
fn block(file: &[u8], (off, size): (usize, usize), what: &str) -> Result<Vec<u8>, TableError> {
    let end = off.checked_add(size).and_then(|e| e.checked_add(5));
    let Some(all) = end.and_then(|e| file.get(off..e)) else {
        return format(format!(
            "{what} block at {off} of {size} bytes lies outside the file"
        ));
    };
    let (contents, trailer) = all.split_at(size);
    let kind = trailer[0];
    if kind != 0 {
        return Err(TableError::Unsupported(format!(
            "{what} block at {off} is compressed (type {kind}; only uncompressed blocks are read)"
        )));
    }
    let stored = u32::from_le_bytes([trailer[1], trailer[2], trailer[3], trailer[4]]);
    let crc = crc32c::crc32c_append(crc32c::crc32c(contents), &[kind]);
    if mask_crc(crc) != stored {
        return format(format!("{what} block at {off}: CRC32C mismatch"));
    }
    Ok(contents.to_vec())
}

/// The (key, value) entries of a block, prefix-compressed keys expanded.
fn entries(contents: &[u8], what: &str) -> Result<Vec<Kv>, TableError> {
    let bad = || TableError::Format(format!("{what} block: malformed entries"));
    if contents.len() < 4 {
        return Err(bad());
    }
    let n = contents.len();
    let restarts = u32::from_le_bytes([
        contents[n - 4],
        contents[n - 3],
        contents[n - 2],
        contents[n - 1],
    ]) as usize;
    let limit = restarts
        .checked_mul(4)
        .and_then(|r| r.checked_add(4))
        .and_then(|r| n.checked_sub(r))
        .ok_or_else(bad)?;
    let data = &contents[..limit];
    let (mut pos, mut key, mut out) = (0usize, Vec::new(), Vec::new());
    while pos < data.len() {
        let shared = varint(data, &mut pos).ok_or_else(bad)? as usize;
        let fresh = varint(data, &mut pos).ok_or_else(bad)? as usize;
        let vlen = varint(data, &mut pos).ok_or_else(bad)? as usize;
        if shared > key.len() {
            return Err(bad());
        }
        key.truncate(shared);
        let k_end = pos.checked_add(fresh).ok_or_else(bad)?;
        key.extend_from_slice(data.get(pos..k_end).ok_or_else(bad)?);
        let v_end = k_end.checked_add(vlen).ok_or_else(bad)?;
        let value = data.get(k_end..v_end).ok_or_else(bad)?.to_vec();
        out.push((key.clone(), value));
        pos = v_end;
    }
    Ok(out)
}

/// Every (key, value) of the table, in key order.
pub(crate) fn read_table(file: &[u8]) -> Result<Vec<Kv>, TableError> {
    if file.len() < FOOTER {
        return format(format!(
            "{} bytes: shorter than the 48-byte table footer",
            file.len()
        ));
    }
    let footer = &file[file.len() - FOOTER..];
    let magic = u64::from_le_bytes(footer[40..48].try_into().expect("8 bytes"));
    if magic != MAGIC {
        return format(format!(
            "not a TensorFlow checkpoint index (footer magic {magic:#018x})"
        ));
    }
    let mut pos = 0;
    let _meta = handle(footer, &mut pos);
    let index = handle(footer, &mut pos)
        .ok_or_else(|| TableError::Format("unreadable index block handle".into()))?;
    let index_block = block(file, index, "index")?;
    let mut out = Vec::new();
    for (_, h) in entries(&index_block, "index")? {
        let mut p = 0;
        let hd = handle(&h, &mut p)
            .ok_or_else(|| TableError::Format("unreadable data block handle".into()))?;
        let contents = block(file, hd, "data")?;
        out.extend(entries(&contents, "data")?);
    }
    Ok(out)
}
