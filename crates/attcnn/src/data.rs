//! Bags as tensors: where bags come from ([`BagSource`]), a bag's pixels as a tensor, and the
//! horizontal flip of training augmentation.

use burn::tensor::{Device, Tensor, TensorData};

/// Where bags come from: the library above adapts a preprocessed dataset to this (attcnn knows
/// nothing of DICOM or of the dataset's files).
pub trait BagSource: Sync {
    fn len(&self) -> usize;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    fn label(&self, i: usize) -> Option<u8>;
    /// Bag i's subtype labels, in the order of the network's subtype outputs (`None` where
    /// unknown); empty when the source has none (a multi-label network then learns "any" alone
    /// from that bag).
    fn subtypes(&self, _i: usize) -> Vec<Option<u8>> {
        Vec::new()
    }
    fn name(&self, i: usize) -> String;
    /// Pixels of bag i: (slices, uint8 `[slices, 3, size, size]`).
    fn pixels(&self, i: usize) -> std::result::Result<(usize, Vec<u8>), String>;
}

/// A bag as a `[1, S, 3, size, size]` tensor in [0, 1].
pub fn bag_tensor(pixels: &[u8], slices: usize, size: usize, device: &Device) -> Tensor<5> {
    let v: Vec<f32> = pixels.iter().map(|&p| p as f32 / 255.0).collect();
    Tensor::from_data(TensorData::new(v, [1, slices, 3, size, size]), device)
}

/// Mirrors every row of uint8 `[.., size]` images (left ↔ right).
pub fn flip_horizontal(pixels: &mut [u8], size: usize) {
    for row in pixels.chunks_mut(size) {
        row.reverse();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flip_mirrors_rows_and_tensor_scales_to_unit() {
        let mut px: Vec<u8> = (0..8).collect();
        flip_horizontal(&mut px, 4);
        assert_eq!(px, [3, 2, 1, 0, 7, 6, 5, 4]);
        let t = bag_tensor(&[0, 255, 51], 1, 1, &crate::cpu_device());
        assert_eq!(t.dims(), [1, 1, 3, 1, 1]);
        let v = t.into_data().try_to_vec::<f32>().unwrap();
        assert_eq!(v, [0.0, 1.0, 0.2]);
    }
}
