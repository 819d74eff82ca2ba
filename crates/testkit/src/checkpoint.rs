//! Writing small checkpoints (index and data shard) for tests and fuzz seeds: float32 variables,
//! and entries that alias another variable's bytes, the way a hostile index can. Keys are
//! written sorted, one data block, no compression; what [`tfckpt::Checkpoint::open`] reads.

use std::path::Path;

use tfckpt::mask_crc;

fn varint(mut v: u64, out: &mut Vec<u8>) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn field_varint(field: u64, v: u64, out: &mut Vec<u8>) {
    varint(field << 3, out);
    varint(v, out);
}

fn field_bytes(field: u64, b: &[u8], out: &mut Vec<u8>) {
    varint((field << 3) | 2, out);
    varint(b.len() as u64, out);
    out.extend_from_slice(b);
}

/// A `BundleEntryProto` of a float32 tensor.
fn entry(shape: &[usize], offset: u64, size: u64, crc: u32) -> Vec<u8> {
    let mut dims = Vec::new();
    for &d in shape {
        let mut dim = Vec::new();
        field_varint(1, d as u64, &mut dim);
        field_bytes(2, &dim, &mut dims);
    }
    let mut e = Vec::new();
    field_varint(1, 1, &mut e);
    field_bytes(2, &dims, &mut e);
    field_varint(4, offset, &mut e);
    field_varint(5, size, &mut e);
    varint((6 << 3) | 5, &mut e);
    e.extend_from_slice(&crc.to_le_bytes());
    e
}

/// A block (entries with unshared keys, one restart) and its 5-byte trailer.
fn block(kvs: &[(Vec<u8>, Vec<u8>)]) -> Vec<u8> {
    let mut b = Vec::new();
    for (k, v) in kvs {
        varint(0, &mut b);
        varint(k.len() as u64, &mut b);
        varint(v.len() as u64, &mut b);
        b.extend_from_slice(k);
        b.extend_from_slice(v);
    }
    b.extend_from_slice(&0u32.to_le_bytes());
    b.extend_from_slice(&1u32.to_le_bytes());
    let crc = mask_crc(crc32c::crc32c_append(crc32c::crc32c(&b), &[0]));
    b.push(0);
    b.extend_from_slice(&crc.to_le_bytes());
    b
}

/// Writes `PREFIX.index` and `PREFIX.data-00000-of-00001`: each of `tensors` (name, shape,
/// values) stored once in the data shard, and each of `aliases` (name, target) an entry naming
/// the target's bytes.
pub fn write_f32(
    prefix: &Path,
    tensors: &[(&str, Vec<usize>, Vec<f32>)],
    aliases: &[(&str, &str)],
) -> std::io::Result<()> {
    let mut data = Vec::new();
    let mut kvs: Vec<(Vec<u8>, Vec<u8>)> = Vec::new();
    let mut placed = std::collections::HashMap::new();
    for (name, shape, values) in tensors {
        let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        let (offset, size) = (data.len() as u64, bytes.len() as u64);
        let crc = mask_crc(crc32c::crc32c(&bytes));
        data.extend_from_slice(&bytes);
        placed.insert(*name, (shape.clone(), offset, size, crc));
        kvs.push((name.as_bytes().to_vec(), entry(shape, offset, size, crc)));
    }
    for (name, target) in aliases {
        let (shape, offset, size, crc) = placed
            .get(target)
            .cloned()
            .ok_or_else(|| std::io::Error::other(format!("no tensor {target}")))?;
        kvs.push((name.as_bytes().to_vec(), entry(&shape, offset, size, crc)));
    }
    let mut header = Vec::new();
    field_varint(1, 1, &mut header);
    kvs.push((Vec::new(), header));
    kvs.sort();
    let data_block = block(&kvs);
    let mut index = data_block.clone();
    let last = kvs.last().map(|(k, _)| k.clone()).unwrap_or_default();
    let mut handle = Vec::new();
    varint(0, &mut handle);
    varint((data_block.len() - 5) as u64, &mut handle);
    let index_block = block(&[(last, handle)]);
    let index_at = index.len() as u64;
    index.extend_from_slice(&index_block);
    let mut footer = Vec::new();
    varint(0, &mut footer);
    varint(0, &mut footer);
    varint(index_at, &mut footer);
    varint((index_block.len() - 5) as u64, &mut footer);
    footer.resize(40, 0);
    footer.extend_from_slice(&0xdb47_7524_8b80_fb57u64.to_le_bytes());
    index.extend_from_slice(&footer);
    let with = |suffix: &str| {
        let mut s = prefix.as_os_str().to_os_string();
        s.push(suffix);
        std::path::PathBuf::from(s)
    };
    std::fs::write(with(".index"), index)?;
    std::fs::write(with(".data-00000-of-00001"), data)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_written_checkpoint_reads_back_with_its_aliases() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join("c.ckpt");
        write_f32(
            &p,
            &[
                (
                    "a/.ATTRIBUTES/VARIABLE_VALUE",
                    vec![2, 2],
                    vec![1.0, 2.0, 3.0, 4.0],
                ),
                ("b/.ATTRIBUTES/VARIABLE_VALUE", vec![1], vec![5.0]),
            ],
            &[(
                "c/.ATTRIBUTES/VARIABLE_VALUE",
                "a/.ATTRIBUTES/VARIABLE_VALUE",
            )],
        )
        .unwrap();
        let c = tfckpt::Checkpoint::open(&p).unwrap();
        assert_eq!(c.verify().unwrap(), 3);
        let a = c.tensor("a/.ATTRIBUTES/VARIABLE_VALUE").unwrap();
        assert_eq!((a.shape, a.data), (vec![2, 2], vec![1.0, 2.0, 3.0, 4.0]));
        assert_eq!(
            c.tensor("c/.ATTRIBUTES/VARIABLE_VALUE").unwrap().data,
            vec![1.0, 2.0, 3.0, 4.0]
        );
        assert_eq!(c.data_len(), 20);
    }
}
