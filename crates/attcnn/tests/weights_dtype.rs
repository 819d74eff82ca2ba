//! Weights written in another float type (bf16 here, as a half-precision training run or another
//! tool writes them) load into an f32 network: each parameter is cast on load. Loaded verbatim
//! they made burn-flex panic at the first layer ("storage: dtype mismatch").

use attcnn::inference::Trained;
use attcnn::{AttCnn, AttCnnConfig, Precision};
use burn::module::Module;
use burn::tensor::Device;

#[test]
fn bf16_weights_load_into_an_f32_network_as_their_values() {
    let dev = Device::flex();
    dev.seed(5);
    let cfg = AttCnnConfig {
        size: 32,
        dim: 8,
        ..AttCnnConfig::default()
    };
    let model: AttCnn = cfg.init(&dev);
    let bf16 = Precision::Bf16.cast(model.clone());
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("weights-bf16");
    bf16.clone().save_file(&path).unwrap();

    let slices = 3;
    let px: Vec<u8> = (0..slices * 3 * 32 * 32)
        .map(|i| (i * 29 % 253) as u8)
        .collect();
    let loaded = Trained::load(cfg.clone(), &path.with_extension("bpk"), &dev).unwrap();
    let got = loaded.scan(slices, &px).unwrap();

    // what the file holds, as f32: the same values, so the same outputs to the last bit
    let rounded = Trained::from_model(cfg.clone(), Precision::F32.cast(bf16), &dev);
    let want = rounded.scan(slices, &px).unwrap();
    assert_eq!(got.probability, want.probability);
    assert_eq!(got.slice_probability, want.slice_probability);
    assert_eq!(got.features, want.features);

    // and the rounding to bf16 is visible against the original f32 weights, but small
    let original = Trained::from_model(cfg, model, &dev)
        .scan(slices, &px)
        .unwrap();
    let d = (original.probability - got.probability).abs();
    assert!(d > 0.0 && d < 0.05, "bf16 rounding moved p by {d}");
}
