//! C-STORE to a PACS over the DICOM upper layer protocol (dicom-ul), one association per batch.

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use dicom_core::Tag;
use dicom_dictionary_std::{tags, uids};
use dicom_encoding::TransferSyntaxIndex;
use dicom_object::{open_file, InMemDicomObject, OpenFileOptions};
use dicom_transfer_syntax_registry::TransferSyntaxRegistry;
use dicom_ul::pdu::{PDataValue, PDataValueType};
use dicom_ul::{ClientAssociationOptions, Pdu};

use crate::error::{Error, Result};

/// A DICOM node: `AE_TITLE@host:port`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    pub ae_title: String,
    pub host_port: String,
}

impl std::fmt::Display for Node {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}@{}", self.ae_title, self.host_port)
    }
}

/// An AE title: 1 to 16 characters of printable ASCII without backslash, not all spaces.
pub fn check_ae_title(ae: &str) -> Result<()> {
    let ok = !ae.trim().is_empty()
        && ae.len() <= 16
        && ae.bytes().all(|b| (0x20..0x7f).contains(&b) && b != b'\\');
    if ok {
        Ok(())
    } else {
        Err(Error::Invalid(format!(
            "AE title {ae:?}: 1 to 16 printable ASCII characters, no backslash"
        )))
    }
}

impl Node {
    /// Parses `AE@host:port`.
    pub fn parse(s: &str) -> Result<Self> {
        let (ae, hp) = s
            .split_once('@')
            .ok_or_else(|| Error::Invalid(format!("{s:?}: a DICOM node is AE_TITLE@host:port")))?;
        check_ae_title(ae)?;
        let port_ok = hp
            .rsplit_once(':')
            .is_some_and(|(h, p)| !h.is_empty() && p.parse::<u16>().is_ok_and(|p| p > 0));
        if !port_ok {
            return Err(Error::Invalid(format!(
                "{s:?}: a DICOM node is AE_TITLE@host:port (port 1–65535)"
            )));
        }
        Ok(Node {
            ae_title: ae.to_string(),
            host_port: hp.to_string(),
        })
    }
}

/// The SOP class and instance of each file from its file meta group alone (a file that cannot
/// be read gets its reason in `out`): (index, class, instance).
fn file_metas(
    files: &[PathBuf],
    out: &mut [std::result::Result<(), String>],
) -> Vec<(usize, String, String)> {
    let mut metas = Vec::new();
    for (i, f) in files.iter().enumerate() {
        let meta = OpenFileOptions::new()
            // the file meta group only: stop at the first dataset element
            .read_until(Tag(0x0001, 0x0000))
            .open_file(f);
        match meta {
            Ok(obj) => {
                let uid = |s: &str| s.trim_end_matches('\0').to_string();
                let class = uid(obj.meta().media_storage_sop_class_uid());
                let inst = uid(obj.meta().media_storage_sop_instance_uid());
                metas.push((i, class, inst));
            }
            Err(e) => out[i] = Err(format!("not readable as DICOM: {e}")),
        }
    }
    metas
}

/// A C-STORE-RQ command set, in implicit VR little endian.
fn store_command(class: &str, inst: &str, message_id: u16) -> Result<Vec<u8>> {
    let cmd = InMemDicomObject::command_from_element_iter([
        dicom_core::DataElement::new(
            tags::AFFECTED_SOP_CLASS_UID,
            dicom_core::VR::UI,
            dicom_core::PrimitiveValue::from(class),
        ),
        dicom_core::DataElement::new(
            tags::COMMAND_FIELD,
            dicom_core::VR::US,
            dicom_core::PrimitiveValue::from(0x0001u16),
        ),
        dicom_core::DataElement::new(
            tags::MESSAGE_ID,
            dicom_core::VR::US,
            dicom_core::PrimitiveValue::from(message_id),
        ),
        dicom_core::DataElement::new(
            tags::PRIORITY,
            dicom_core::VR::US,
            dicom_core::PrimitiveValue::from(0u16),
        ),
        dicom_core::DataElement::new(
            tags::COMMAND_DATA_SET_TYPE,
            dicom_core::VR::US,
            dicom_core::PrimitiveValue::from(0u16),
        ),
        dicom_core::DataElement::new(
            tags::AFFECTED_SOP_INSTANCE_UID,
            dicom_core::VR::UI,
            dicom_core::PrimitiveValue::from(inst),
        ),
    ]);
    let implicit = TransferSyntaxRegistry
        .get(uids::IMPLICIT_VR_LITTLE_ENDIAN)
        .expect("implicit VR little endian is built in");
    let mut cmd_data = Vec::with_capacity(128);
    cmd.write_dataset_with_ts(&mut cmd_data, implicit)
        .map_err(|e| Error::Build(e.to_string()))?;
    Ok(cmd_data)
}

/// Sends `files` (Part 10, any SOP class) in one association; returns, per file, `Ok` or the
/// reason it was not stored (a file that cannot be read is named and the others go on). An error
/// means no association could be made or it broke (nothing after the break is known to be stored).
/// Only the file meta of every file is read up front; each dataset is read when it is sent, so
/// memory stays that of one file whatever the number of files.
pub fn c_store(
    calling_ae: &str,
    node: &Node,
    files: &[PathBuf],
    timeout: Duration,
) -> Result<Vec<std::result::Result<(), String>>> {
    let mut out: Vec<std::result::Result<(), String>> = vec![Ok(()); files.len()];
    let metas = file_metas(files, &mut out);
    if metas.is_empty() {
        return Ok(out);
    }
    let mut classes: Vec<&str> = metas.iter().map(|m| m.1.as_str()).collect();
    classes.sort_unstable();
    classes.dedup();
    let mut opts = ClientAssociationOptions::new()
        .calling_ae_title(calling_ae)
        .called_ae_title(node.ae_title.as_str())
        .connection_timeout(timeout)
        .read_timeout(timeout)
        .write_timeout(timeout);
    for c in &classes {
        opts = opts.with_presentation_context(
            *c,
            vec![
                uids::EXPLICIT_VR_LITTLE_ENDIAN,
                uids::IMPLICIT_VR_LITTLE_ENDIAN,
            ],
        );
    }
    let mut scu = opts
        .establish_with(&node.to_string())
        .map_err(|e| Error::net(node, format!("association: {e}")))?;
    for (k, (i, class, inst)) in metas.into_iter().enumerate() {
        let pc = scu
            .presentation_contexts()
            .iter()
            .find(|pc| pc.abstract_syntax.trim_end_matches('\0') == class)
            .cloned();
        let Some(pc) = pc else {
            out[i] = Err(format!("{node} refused the SOP class {class}"));
            continue;
        };
        let obj = match open_file(&files[i]) {
            Ok(o) => o,
            Err(e) => {
                out[i] = Err(format!("not readable as DICOM: {e}"));
                continue;
            }
        };
        let ts = TransferSyntaxRegistry
            .get(pc.transfer_syntax.trim_end_matches('\0'))
            .ok_or_else(|| {
                Error::net(
                    node,
                    format!("unknown transfer syntax {}", pc.transfer_syntax),
                )
            })?;
        let cmd_data = store_command(&class, &inst, (k + 1) as u16)?;
        let implicit = TransferSyntaxRegistry
            .get(uids::IMPLICIT_VR_LITTLE_ENDIAN)
            .expect("implicit VR little endian is built in");
        let mut data = Vec::new();
        obj.write_dataset_with_ts(&mut data, ts)
            .map_err(|e| Error::Build(e.to_string()))?;
        let net = |e: &dyn std::fmt::Display| Error::net(node, e);
        let max = scu.acceptor_max_pdu_length().saturating_sub(100) as usize;
        if cmd_data.len() + data.len() < max {
            scu.send(&Pdu::PData {
                data: vec![
                    PDataValue {
                        presentation_context_id: pc.id,
                        value_type: PDataValueType::Command,
                        is_last: true,
                        data: cmd_data,
                    },
                    PDataValue {
                        presentation_context_id: pc.id,
                        value_type: PDataValueType::Data,
                        is_last: true,
                        data,
                    },
                ],
            })
            .map_err(|e| net(&e))?;
        } else {
            scu.send(&Pdu::PData {
                data: vec![PDataValue {
                    presentation_context_id: pc.id,
                    value_type: PDataValueType::Command,
                    is_last: true,
                    data: cmd_data,
                }],
            })
            .map_err(|e| net(&e))?;
            let mut w = scu.send_pdata(pc.id);
            w.write_all(&data).map_err(|e| net(&e))?;
            w.finish().map_err(|e| net(&e))?;
        }
        let status = match scu.receive().map_err(|e| net(&e))? {
            Pdu::PData { data } if !data.is_empty() => {
                let rsp = InMemDicomObject::read_dataset_with_ts(&data[0].data[..], implicit)
                    .map_err(|e| net(&e))?;
                rsp.element(tags::STATUS)
                    .ok()
                    .and_then(|e| e.to_int::<u16>().ok())
                    .ok_or_else(|| Error::net(node, "C-STORE response without a status"))?
            }
            other => return Err(Error::net(node, format!("unexpected answer {other:?}"))),
        };
        out[i] = match status {
            0 => Ok(()),
            // warnings: stored, with coercion or elements dropped
            0x0001 | 0x0107 | 0x0116 | 0xB000..=0xBFFF => {
                tracing::warn!("{node} stored {inst} with warning status {status:04X}H");
                Ok(())
            }
            s => Err(format!("{node} refused {inst}: status {s:04X}H")),
        };
    }
    let _ = scu.release();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nodes_parse_and_bad_ones_are_refused() {
        let n = Node::parse("ORTHANC@127.0.0.1:4242").unwrap();
        assert_eq!(
            (n.ae_title.as_str(), n.host_port.as_str()),
            ("ORTHANC", "127.0.0.1:4242")
        );
        for bad in [
            "ORTHANC",
            "@h:1",
            "A@h",
            "A@:1",
            "A@h:0",
            "A@h:70000",
            "TOOLONGAETITLE_XYZ@h:1",
            "A\\B@h:1",
        ] {
            assert!(Node::parse(bad).is_err(), "{bad}");
        }
    }
}
