//! A multi-label network: one output per subtype beside "any", learnt from scan labels (a bag
//! has a subtype when one of its slices shows it), with unknown subtype labels weighing nothing.

use attcnn::training::{bag_tensor, train, BagSource, TrainConfig, TrainPaths, TrainRun};
use attcnn::AttCnnConfig;
use burn::module::Module;
use burn::tensor::Device;

const SIZE: usize = 32;

/// Bags of 3 slices of noise; subtype 0 puts a bright 8×8 square in a slice's top-left corner,
/// subtype 1 a bright bar along its bottom edge. Bag b has subtype 0 when b % 4 ∈ {1, 3} and
/// subtype 1 when b % 4 ∈ {2, 3}; "any" is either.
struct Bags {
    n: usize,
    /// Bags whose subtype labels are withheld (unknown).
    unknown: Vec<usize>,
}

impl Bags {
    fn has(&self, b: usize) -> [bool; 2] {
        [b % 4 == 1 || b % 4 == 3, b % 4 == 2 || b % 4 == 3]
    }
}

impl BagSource for Bags {
    fn len(&self) -> usize {
        self.n
    }
    fn label(&self, i: usize) -> Option<u8> {
        let h = self.has(i);
        Some(u8::from(h[0] || h[1]))
    }
    fn subtypes(&self, i: usize) -> Vec<Option<u8>> {
        if self.unknown.contains(&i) {
            return vec![None, None];
        }
        self.has(i).iter().map(|&h| Some(u8::from(h))).collect()
    }
    fn name(&self, i: usize) -> String {
        format!("bag{i}")
    }
    fn pixels(&self, i: usize) -> Result<(usize, Vec<u8>), String> {
        let mut px: Vec<u8> = (0..3 * 3 * SIZE * SIZE)
            .map(|k| ((k as u32 ^ (i as u32 * 7919)).wrapping_mul(2654435761) >> 27) as u8)
            .collect();
        let h = self.has(i);
        // the finding on the middle slice, in all three channels
        for c in 0..3 {
            let base = (3 + c) * SIZE * SIZE;
            for y in 0..SIZE {
                for x in 0..SIZE {
                    let square = h[0] && y < 8 && x < 8;
                    let bar = h[1] && y >= SIZE - 4;
                    if square || bar {
                        px[base + y * SIZE + x] = 230;
                    }
                }
            }
        }
        Ok((3, px))
    }
}

fn auc(labels: &[bool], scores: &[f64]) -> f64 {
    let (mut num, mut den) = (0.0, 0.0);
    for (a, &la) in scores.iter().zip(labels) {
        for (b, &lb) in scores.iter().zip(labels) {
            if la && !lb {
                den += 1.0;
                num += if a > b {
                    1.0
                } else if a == b {
                    0.5
                } else {
                    0.0
                };
            }
        }
    }
    num / den
}

#[test]
fn each_subtype_output_learns_its_own_finding() {
    let t = tempfile::tempdir().unwrap();
    let cfg = AttCnnConfig {
        dim: 8,
        size: SIZE,
        conv_dropout: 0.0,
        head_dropout: 0.0,
        subtypes: 2,
        ..AttCnnConfig::default()
    };
    // a quarter of the training bags without subtype labels: they teach "any" only
    let bags = Bags {
        n: 48,
        unknown: vec![4, 9, 14, 19, 24, 29],
    };
    let train_idx: Vec<usize> = (0..32).collect();
    let valid_idx: Vec<usize> = (32..48).collect();
    let tc = TrainConfig {
        epochs: 25,
        lr: 2e-3,
        patience: 25,
        seed: 5,
        augment: false,
        batch: 4,
        ..TrainConfig::default()
    };
    let paths = TrainPaths {
        weights: t.path().join("model.bpk"),
        log: t.path().join("log.csv"),
        checkpoint: t.path().join("ckpt"),
    };
    let device = Device::flex();
    let run = TrainRun {
        model: &cfg,
        config: &tc,
        train: &train_idx,
        valid: &valid_idx,
        device: &device,
        paths: &paths,
        resume: false,
    };
    train(&run, &bags, &|_| {}).unwrap();
    let model = cfg
        .init(&device)
        .load_weights(&paths.weights)
        .unwrap()
        .valid();
    // on the held-out bags, each subtype's output ranks the bags with that subtype first, and
    // better than the other subtype's output does
    let (mut s0, mut s1, mut y0, mut y1) = (vec![], vec![], vec![], vec![]);
    for &i in &valid_idx {
        let (n, px) = bags.pixels(i).unwrap();
        let x = bag_tensor(&px, n, SIZE, &device);
        let z = model
            .forward_subtypes(x, None)
            .unwrap()
            .into_data()
            .try_to_vec::<f32>()
            .unwrap();
        assert_eq!(z.len(), 2);
        s0.push(z[0] as f64);
        s1.push(z[1] as f64);
        let h = bags.has(i);
        y0.push(h[0]);
        y1.push(h[1]);
    }
    // the validation loss the best epoch is chosen on is the training objective: per bag the
    // cross-entropy of "any" plus the mean of the subtypes' over the known subtype labels (here
    // with unit class weights, from the logits by hand)
    let trained = cfg.init(&device).load_weights(&paths.weights).unwrap();
    let xent = |z: f64, y: bool| {
        // −log σ(z) = log(1 + e^(−z)) for a positive, −log(1 − σ(z)) = log(1 + e^z) for a
        // negative, written so that a tiny loss keeps its digits
        if y {
            (-z).exp().ln_1p()
        } else {
            z.exp().ln_1p()
        }
    };
    let check = [32usize, 33, 34, 35];
    let (mut want_any, mut want_sub) = (0.0, 0.0);
    for &i in &check {
        let (n, px) = bags.pixels(i).unwrap();
        let (z, zs) = model.forward_with_subtypes(bag_tensor(&px, n, SIZE, &device), None);
        let z = z.into_data().try_to_vec::<f32>().unwrap()[0] as f64;
        let zs = zs.unwrap().into_data().try_to_vec::<f32>().unwrap();
        let h = bags.has(i);
        want_any += xent(z, h[0] || h[1]);
        want_sub += (xent(zs[0] as f64, h[0]) + xent(zs[1] as f64, h[1])) / 2.0;
    }
    want_any /= check.len() as f64;
    want_sub /= check.len() as f64;
    let want = want_any + want_sub;
    // every term is positive for finite logits, however far the run converged
    assert!(want_any > 0.0 && want_sub > 0.0, "{want_any} {want_sub}");
    // the same logits give the same f64 sums: relative tolerances, so that they hold at any loss
    let close = |a: f64, b: f64| (a - b).abs() <= 1e-5 * b;
    let unit = [[1.0f32, 1.0]; 2];
    let (_, got) =
        attcnn::training::evaluate(&trained, &cfg, &bags, &check, [1.0, 1.0], &unit, &device)
            .unwrap();
    assert!(close(got, want), "{got} vs {want}");
    // without subtype weights (an "any"-only run) the subtypes' terms are left out: the loss is
    // "any"'s cross-entropy alone, and what the subtype weights add is the subtypes' mean
    let (_, any_only) =
        attcnn::training::evaluate(&trained, &cfg, &bags, &check, [1.0, 1.0], &[], &device)
            .unwrap();
    assert!(close(any_only, want_any), "{any_only} vs {want_any}");
    assert!(
        (got - any_only - want_sub).abs() <= 1e-4 * want_sub,
        "subtype terms {} vs {want_sub}",
        got - any_only
    );
    let (a00, a11) = (auc(&y0, &s0), auc(&y1, &s1));
    let (a01, a10) = (auc(&y0, &s1), auc(&y1, &s0));
    assert!(a00 >= 0.9 && a11 >= 0.9, "own AUCs {a00} {a11}");
    assert!(a00 > a01 && a11 > a10, "crossed AUCs {a01} {a10}");
    // an "any"-only network has no subtype outputs, and its file loads as before
    let one = AttCnnConfig { subtypes: 0, ..cfg };
    let m1 = one.init(&device).valid();
    let (n, px) = bags.pixels(0).unwrap();
    assert!(m1
        .forward_subtypes(bag_tensor(&px, n, SIZE, &device), None)
        .is_none());
    let json = serde_json::to_string(&one).unwrap();
    assert!(!json.contains("subtypes"), "{json}");
}
