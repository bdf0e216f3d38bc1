//! Non-negative least squares on relative errors (`search calibrate --fit`, docs/cost-model.md
//! §3): math only, no I/O.

/// Solve the square system `a x = b` by Gaussian elimination with partial pivoting (None when
/// singular).
fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Option<Vec<f64>> {
    let n = b.len();
    for col in 0..n {
        let piv = (col..n).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        let scale = a.iter().map(|r| r[col].abs()).fold(0.0, f64::max);
        if a[piv][col].abs() <= 1e-12 * scale.max(1e-300) {
            return None;
        }
        a.swap(col, piv);
        b.swap(col, piv);
        for i in col + 1..n {
            let q = a[i][col] / a[col][col];
            let (head, tail) = a.split_at_mut(i);
            for (x, p) in tail[0][col..n].iter_mut().zip(&head[col][col..n]) {
                *x -= q * p;
            }
            b[i] -= q * b[col];
        }
    }
    let mut x = vec![0.0; n];
    for i in (0..n).rev() {
        let s: f64 = (i + 1..n).map(|j| a[i][j] * x[j]).sum();
        x[i] = (b[i] - s) / a[i][i];
    }
    Some(x)
}

/// Non-negative least squares on relative errors, `min Σ_r ((Σ_i k_i f_ri − y_r) / y_r)²` over
/// k ≥ 0, by trying every support set of the features (2^p − 1 sets for p features; the
/// largest groups have 9): the feasible solution of
/// smallest residual wins (ties: the earlier support, so the result is deterministic).
pub fn nnls_relative(f: &[Vec<f64>], y: &[f64]) -> Vec<f64> {
    let p = f.first().map_or(0, |r| r.len());
    let mut best: (f64, Vec<f64>) = (f64::INFINITY, vec![0.0; p]);
    for mask in 1u32..(1 << p) {
        let idx: Vec<usize> = (0..p).filter(|i| mask >> i & 1 == 1).collect();
        let q = idx.len();
        let mut a = vec![vec![0.0; q]; q];
        let mut b = vec![0.0; q];
        for (row, &yr) in f.iter().zip(y) {
            let w = 1.0 / (yr * yr);
            for (ii, &i) in idx.iter().enumerate() {
                b[ii] += w * row[i] * yr;
                for (jj, &j) in idx.iter().enumerate() {
                    a[ii][jj] += w * row[i] * row[j];
                }
            }
        }
        let Some(x) = solve(a, b) else { continue };
        if x.iter().any(|&v| v < 0.0) {
            continue;
        }
        let mut k = vec![0.0; p];
        for (ii, &i) in idx.iter().enumerate() {
            k[i] = x[ii];
        }
        let res: f64 = f
            .iter()
            .zip(y)
            .map(|(row, &yr)| {
                let m: f64 = row.iter().zip(&k).map(|(a, b)| a * b).sum();
                ((m - yr) / yr).powi(2)
            })
            .sum();
        if res < best.0 * (1.0 - 1e-12) {
            best = (res, k);
        }
    }
    best.1
}
