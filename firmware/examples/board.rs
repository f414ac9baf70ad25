//! A board's arbiter on the host: each line of standard input is a challenge's two ranks as
//! the board's reader read them (`SP 5G`: the attacker's first), each line of output what the
//! players hear. `printf 'SP 5G\nPV FL\n' | cargo run --example board --target
//! x86_64-unknown-linux-gnu` in `firmware/`.

use std::io::BufRead;

use salpakan_firmware::Board;

fn main() {
    let mut board = Board::default();
    let mut out = String::new();
    for line in std::io::stdin().lock().lines() {
        let line = line.expect("standard input reads");
        let mut codes = line.split_whitespace();
        let (attacker, defender) = (codes.next().unwrap_or(""), codes.next().unwrap_or(""));
        board
            .judge(attacker, defender, &mut out)
            .expect("a String takes it all");
    }
    let [won, lost, tied] = board.judged;
    print!("{out}");
    println!("judged: {won} won, {lost} lost, {tied} tied");
}
