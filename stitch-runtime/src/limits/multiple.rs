//! `multipleOf` on decimals: `0.3` is a multiple of `0.1` as written, though `0.3 / 0.1` is
//! `2.9999999999999996` in binary floating point.

/// `value` and `step` (above zero) read as the shortest decimals that give back their `f64`;
/// past 128 bits of digits, the quotient of the two `f64`s must be whole.
pub(super) fn is_multiple(value: f64, step: f64) -> bool {
    match (decimal(value), decimal(step)) {
        (Some(v), Some(s)) => match (align(v, s.1), align(s, v.1)) {
            (Some(v), Some(s)) if s != 0 => v % s == 0,
            _ => quotient_is_whole(value, step),
        },
        _ => quotient_is_whole(value, step),
    }
}

fn quotient_is_whole(value: f64, step: f64) -> bool {
    let q = value / step;
    q.is_finite() && q == q.trunc()
}

/// `|x|` as `digits / 10^scale`, from Rust's shortest round-trip spelling (never exponent form).
fn decimal(x: f64) -> Option<(u128, u32)> {
    if !x.is_finite() {
        return None;
    }
    let text = format!("{}", x.abs());
    let (whole, fraction) = text.split_once('.').unwrap_or((&text, ""));
    let digits = format!("{whole}{fraction}").parse().ok()?;
    Some((digits, u32::try_from(fraction.len()).ok()?))
}

fn align((digits, scale): (u128, u32), other_scale: u32) -> Option<u128> {
    let up = other_scale.saturating_sub(scale);
    digits.checked_mul(10u128.checked_pow(up)?)
}

#[cfg(test)]
mod tests {
    use super::is_multiple;

    #[test]
    fn decimals_are_multiples_as_written() {
        for (value, step) in [
            (0.3, 0.1),
            (0.7, 0.1),
            (1.1, 0.1),
            (2.5, 0.5),
            (0.0, 0.1),
            (-0.3, 0.1),
            (3.0, 0.1),
            (0.01, 0.001),
            (1e20, 0.5),
        ] {
            assert!(is_multiple(value, step), "{value} of {step}");
        }
        for (value, step) in [(0.35, 0.1), (0.3, 0.2), (1.0, 0.3), (0.0001, 0.001)] {
            assert!(!is_multiple(value, step), "{value} of {step}");
        }
    }

    #[test]
    fn too_many_digits_fall_back_to_the_quotient() {
        assert!(is_multiple(1e300, 1e100));
        assert!(!is_multiple(5e-324, 0.1));
    }
}
