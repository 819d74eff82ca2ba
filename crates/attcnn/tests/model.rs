//! The attention CNN: shapes, attention masking, save/load, one optimiser step.

use attcnn::training::{bag_tensor, weighted_bce};
use attcnn::AttCnnConfig;
use burn::module::Module;
use burn::optim::{AdamConfig, GradientsParams};
use burn::tensor::{Bool, Device, Tensor, TensorData};

fn small(dim: usize) -> AttCnnConfig {
    AttCnnConfig {
        dim,
        size: 32,
        conv_dropout: 0.0,
        head_dropout: 0.0,
        ..AttCnnConfig::default()
    }
}

fn pixels(slices: usize, size: usize, seed: u32) -> Vec<u8> {
    (0..slices * 3 * size * size)
        .map(|i| ((i as u32).wrapping_mul(2654435761).wrapping_add(seed) >> 24) as u8)
        .collect()
}

fn values<const D: usize>(t: Tensor<D>) -> Vec<f32> {
    t.into_data().try_to_vec::<f32>().unwrap()
}

#[test]
fn geometry_follows_the_input_size() {
    // 512²: 256 → 127 → 62 → 30 → 14 → 6 after five blocks: 32·6·6 = 1152 (MODELS.md §8)
    let c = AttCnnConfig {
        size: 512,
        ..AttCnnConfig::default()
    };
    assert_eq!(c.geometry(), (5, 6));
    assert_eq!(c.flatten(), 1152);
    // 64²: 32 → 15 → 6 → 2 (three blocks fit)
    assert_eq!(
        AttCnnConfig {
            size: 64,
            ..c.clone()
        }
        .geometry(),
        (3, 2)
    );
    assert!(AttCnnConfig { dim: 7, ..c }.validate().is_err());
}

#[test]
fn output_shapes_for_several_bag_sizes() {
    let device = Device::flex();
    for dim in [8, 32, 128] {
        let cfg = small(dim);
        let model = cfg.init(&device).valid();
        for slices in [1, 3, 7] {
            let x = bag_tensor(&pixels(slices, 32, 1), slices, 32, &device);
            let (logit, att, feats) = model.forward(x, None);
            assert_eq!(logit.dims(), [1]);
            assert_eq!(att.dims(), [1, slices]);
            assert_eq!(feats.dims(), [1, slices, dim]);
        }
    }
}

#[test]
fn attention_sums_to_one_over_real_slices_and_is_zero_on_padding() {
    let device = Device::flex();
    let cfg = small(8);
    let model = cfg.init(&device).valid();
    // two bags of 5 slots: the second has 3 real slices and 2 of padding
    let px = pixels(10, 32, 7);
    let x: Tensor<5> = Tensor::from_data(
        TensorData::new(
            px.iter().map(|&p| p as f32 / 255.0).collect::<Vec<f32>>(),
            [2, 5, 3, 32, 32],
        ),
        &device,
    );
    let mask: Tensor<2, Bool> = Tensor::from_data(
        TensorData::new(
            vec![
                false, false, false, false, false, false, false, false, true, true,
            ],
            [2, 5],
        ),
        &device,
    );
    let (_, att, _) = model.forward(x, Some(mask));
    let a = values(att);
    let s0: f32 = a[..5].iter().sum();
    let s1: f32 = a[5..8].iter().sum();
    assert!((s0 - 1.0).abs() < 1e-5 && (s1 - 1.0).abs() < 1e-5, "{a:?}");
    assert!(a[8].abs() < 1e-12 && a[9].abs() < 1e-12, "{a:?}");
    assert!(a.iter().all(|&v| v >= 0.0));
}

#[test]
fn save_and_load_give_identical_outputs() {
    let device = Device::flex();
    let cfg = small(32);
    let model = cfg.init(&device);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.bpk");
    model.clone().save_file(&path).unwrap();
    let loaded = cfg.init(&device).try_load_file(&path).unwrap();
    let x = bag_tensor(&pixels(4, 32, 3), 4, 32, &device);
    let (a, _, fa) = model.valid().forward(x.clone(), None);
    let (b, _, fb) = loaded.valid().forward(x, None);
    assert_eq!(values(a), values(b));
    assert_eq!(values(fa), values(fb));
}

#[test]
fn one_optimiser_step_lowers_the_loss() {
    let device = Device::flex().autodiff();
    device.seed(1);
    let cfg = small(8);
    let mut model = cfg.init(&device);
    let mut optim = AdamConfig::new().init();
    let x = bag_tensor(&pixels(3, 32, 5), 3, 32, &device);
    let loss_of = |m: &attcnn::AttCnn| {
        let (logit, _, _) = m.forward(x.clone(), None);
        weighted_bce(logit, 1.0, 1.0)
    };
    let before = loss_of(&model);
    let b = values(before.clone())[0];
    let grads = GradientsParams::from_grads(before.backward(), &model);
    model = optim.step(1e-3, model, grads);
    let a = values(loss_of(&model))[0];
    assert!(a < b, "loss {b} → {a}");
}

#[test]
fn weighted_bce_by_hand() {
    let device = Device::flex();
    let z: Tensor<1> = Tensor::from_data(TensorData::new(vec![0.0f32, 2.0, -30.0], [3]), &device);
    // softplus(0) − 0 = ln 2; y = 1, z = 2: ln(1 + e²) − 2 = ln(1 + e⁻²); weight 3
    let l1 = values(weighted_bce(z.clone(), 1.0, 3.0));
    assert!((l1[0] - 3.0 * 2f32.ln()).abs() < 1e-6);
    assert!((l1[1] - 3.0 * (-2f32).exp().ln_1p()).abs() < 1e-6);
    assert!((l1[2] - 90.0).abs() < 1e-3); // y = 1, z = −30: ≈ 30 · 3
    let l0 = values(weighted_bce(z, 0.0, 1.0));
    assert!(l0[2] < 1e-12 && l0[2] >= 0.0); // y = 0, z = −30: ≈ e⁻³⁰
}

/// Backpropagation through every layer (convolutions, batch norm in training mode, max pooling,
/// attention, classifier) agrees with central finite differences of the logit with respect to
/// input pixels.
#[test]
fn input_gradient_matches_finite_differences() {
    let device = Device::flex().autodiff();
    device.seed(3);
    let cfg = small(8);
    let model = cfg.init(&device);
    let (s, n) = (4usize, 32usize);
    let base: Vec<f32> = pixels(s, n, 11).iter().map(|&p| p as f32 / 255.0).collect();
    let logit = |v: &[f32]| -> f64 {
        let x: Tensor<5> = Tensor::from_data(TensorData::new(v.to_vec(), [1, s, 3, n, n]), &device);
        values(model.forward(x, None).0)[0] as f64
    };
    let x: Tensor<5> =
        Tensor::from_data(TensorData::new(base.clone(), [1, s, 3, n, n]), &device).require_grad();
    let (out, _, _) = model.forward(x.clone(), None);
    let grads = out.sum().backward();
    let g = x
        .grad(&grads)
        .unwrap()
        .into_data()
        .try_to_vec::<f32>()
        .unwrap();
    // the 40 largest gradients: these carry the signal that trains the convolutions
    let mut idx: Vec<usize> = (0..g.len()).collect();
    idx.sort_by(|&a, &b| g[b].abs().total_cmp(&g[a].abs()));
    let eps = 2e-3f32;
    let mut agree = 0;
    for &k in idx.iter().take(40) {
        let mut up = base.clone();
        up[k] += eps;
        let mut down = base.clone();
        down[k] -= eps;
        let fd = (logit(&up) - logit(&down)) / (2.0 * eps as f64);
        if (fd - g[k] as f64).abs() <= 0.05 * (g[k] as f64).abs() + 1e-4 {
            agree += 1;
        }
    }
    // a few may sit on a max-pooling kink
    assert!(
        agree >= 36,
        "{agree} of 40 input gradients agree with finite differences"
    );
}

/// Inference on a scan refuses pixel buffers that do not fit (an empty scan, a short buffer)
/// with an error instead of panicking, and runs on one that does.
#[test]
fn scan_inference_refuses_buffers_that_do_not_fit() {
    let device = attcnn::cpu_device();
    let cfg = small(8);
    let net = attcnn::inference::Trained::from_model(cfg.clone(), cfg.init(&device), &device);
    assert!(net.scan(0, &[]).is_err());
    assert!(net.scan(2, &pixels(1, 32, 0)).is_err());
    let out = net.scan(2, &pixels(2, 32, 0)).unwrap();
    assert_eq!(out.features.len(), 2);
    assert_eq!(out.attention.len(), 2);
}

/// How many slices inference encodes at a time changes nothing a slice gives (batch norm uses its
/// running statistics there): one at a time, the CPU's 8 (an 11-slice scan as 8 + 3) and all at
/// once agree; every device encodes 8 at a time.
#[test]
fn scan_outputs_do_not_depend_on_how_many_slices_are_encoded_at_a_time() {
    use attcnn::inference::{Trained, ENCODE_CHUNK};
    let device = attcnn::cpu_device();
    let cfg = small(8);
    let model = cfg.init(&device);
    let px = pixels(11, 32, 5);
    let net = |chunk: Option<usize>| {
        let t = Trained::from_model(cfg.clone(), model.clone(), &device);
        match chunk {
            Some(c) => t.with_encode_chunk(c),
            None => t,
        }
    };
    assert_eq!(ENCODE_CHUNK, 8);
    assert_eq!(net(None).encode_chunk(), 8);
    assert_eq!(net(Some(0)).encode_chunk(), 1);
    let want = net(None).scan(11, &px).unwrap();
    for chunk in [1, 11, 64] {
        let got = net(Some(chunk)).scan(11, &px).unwrap();
        let close = |a: f64, b: f64| (a - b).abs() <= 1e-5 * (1.0 + b.abs());
        assert_eq!(got.features.len(), 11);
        for (g, w) in got
            .features
            .iter()
            .flatten()
            .zip(want.features.iter().flatten())
        {
            assert!(
                close(*g as f64, *w as f64),
                "chunk {chunk}: feature {g} vs {w}"
            );
        }
        assert!(close(got.probability, want.probability), "chunk {chunk}");
        for (g, w) in got.attention.iter().zip(&want.attention) {
            assert!(
                close(*g as f64, *w as f64),
                "chunk {chunk}: attention {g} vs {w}"
            );
        }
        for (g, w) in got.slice_probability.iter().zip(&want.slice_probability) {
            assert!(close(*g, *w), "chunk {chunk}: slice probability {g} vs {w}");
        }
    }
}

/// Monte Carlo dropout through the classifier: the classifier is linear in the pooled features
/// (Dense 128 → Dense 1, no activation between), so with inverted dropout the mean logit over
/// passes must converge to the network's deterministic logit, for the scan and every slice-alone
/// bag; the same seed gives the same draws, another seed others; no dropout, no draws.
#[test]
fn dropout_draws_average_to_the_deterministic_network_and_are_seeded() {
    use attcnn::inference::Trained;
    let device = attcnn::cpu_device();
    let cfg = AttCnnConfig {
        head_dropout: 0.25,
        pad_bag_to: Some(6),
        ..small(8)
    };
    let net = Trained::from_model(cfg.clone(), cfg.init(&device), &device);
    let out = net.scan(4, &pixels(4, 32, 9)).unwrap();
    assert_eq!(out.classifier_input.len(), 5 * 8);
    let passes = 4000;
    let d = net.dropout_draws(&out, passes, 7).unwrap().unwrap();
    assert_eq!(d.scan.len(), passes);
    assert_eq!(d.slices.len(), 4);
    let logit = |p: f64| (p / (1.0 - p)).ln();
    let check = |draws: &[f64], want: f64, what: &str| {
        let l: Vec<f64> = draws.iter().map(|&p| logit(p)).collect();
        let n = l.len() as f64;
        let mean = l.iter().sum::<f64>() / n;
        let sd = (l.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt();
        assert!(sd > 0.0, "{what}: the passes do not differ");
        assert!(
            (mean - want).abs() <= 5.0 * sd / n.sqrt() + 1e-4,
            "{what}: mean logit {mean} over {passes} passes, the network's {want} (sd {sd})"
        );
    };
    check(&d.scan, out.logit, "scan");
    for (k, s) in d.slices.iter().enumerate() {
        check(s, out.slice_logit[k], &format!("slice {k}"));
    }
    let again = net.dropout_draws(&out, 16, 7).unwrap().unwrap();
    assert_eq!(again.scan, d.scan[..16].to_vec());
    let other = net.dropout_draws(&out, 16, 8).unwrap().unwrap();
    assert_ne!(other.scan, again.scan);
    assert!(net.dropout_draws(&out, 0, 7).unwrap().is_none());
    let none = AttCnnConfig {
        head_dropout: 0.0,
        ..cfg.clone()
    };
    let plain = Trained::from_model(none, cfg.init(&device), &device);
    assert!(plain.dropout_draws(&out, 16, 7).unwrap().is_none());
}
