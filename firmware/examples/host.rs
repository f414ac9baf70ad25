//! The host's run of the device's game (`scripts/test-firmware` compares the two):
//! `cargo run --example host --target x86_64-unknown-linux-gnu` in `firmware/`.

fn main() {
    let mut out = String::new();
    salpakan_firmware::play(salpakan_firmware::SEED, &mut out).expect("a String takes it all");
    print!("{out}");
}
