#!/usr/bin/env python3
"""Plays `kinrow serve`'s page in Debian's chromium through playwright, as a person would:
whole 3x3 games by clicks on random empty squares (the engine must never lose), undo, hint,
the keyboard, the score, the game record, a bad set-up's message, a phone-sized screen, and
no JavaScript error anywhere. Exits 0 when every check holds; the first failure ends it with
a one-line message.

    play.py --kinrow target/debug/kinrow [--games 4] [--seed 1]
    play.py --kinrow target/release/kinrow --screenshot docs/serve-15x15.png

The browser is the system's (--chromium, default /usr/bin/chromium): playwright downloads
nothing.
"""

import argparse
import random
import re
import subprocess
import sys
import time

from playwright.sync_api import sync_playwright

ENDINGS = ("x wins", "o wins", "draw")
WAIT_MS = 15_000


class Failure(Exception):
    """A check that did not hold."""


def check(condition, message):
    if not condition:
        raise Failure(message)


def start_server(kinrow):
    server = subprocess.Popen(
        [kinrow, "serve", "--port", "0"],
        stdout=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
    )
    line = server.stdout.readline()
    found = re.search(r"http://127\.0\.0\.1:\d+/", line)
    if not found:
        server.kill()
        raise Failure(f"kinrow serve's first line names no address: {line!r}")
    return server, found.group(0)


def stop_server(server):
    server.terminate()
    try:
        status = server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.kill()
        raise Failure("kinrow serve did not exit within 10 s of SIGTERM")
    check(status == 0, f"kinrow serve exited with status {status} on SIGTERM")


def stones(page):
    return page.locator("[data-square]:not([data-stone=''])").count()


def status(page):
    return page.locator("[data-role=status]").inner_text().strip()


def wait_for_turn(page, person):
    """Waits until `person` ('x' or 'o') is to move with nothing being searched, or the game
    is over; returns the status."""
    page.wait_for_function(
        """([person, endings]) => {
            const status = document.querySelector('[data-role=status]').textContent.trim();
            const thinking = !document.querySelector('[data-role=thinking]').hidden;
            return endings.includes(status) || (status === person + ' to move' && !thinking);
        }""",
        arg=[person, list(ENDINGS)],
        timeout=WAIT_MS,
    )
    return status(page)


def click_random_empty(page, rng):
    empty = page.locator("[data-square][data-stone='']")
    squares = [empty.nth(i).get_attribute("data-square") for i in range(empty.count())]
    square = rng.choice(squares)
    before = stones(page)
    page.locator(f"[data-square='{square}']").click()
    page.wait_for_function(
        "n => document.querySelectorAll(\"[data-square]:not([data-stone=''])\").length > n",
        arg=before,
        timeout=WAIT_MS,
    )
    return square


def play_game(page, person, rng):
    """Plays `person`'s side by random clicks until the game ends; returns the result."""
    while True:
        now = wait_for_turn(page, person)
        if now in ENDINGS:
            return now
        click_random_empty(page, rng)


def wait_for_stone(page, square, stone):
    page.wait_for_function(
        "([square, stone]) => document.querySelector(`[data-square=${square}]`).dataset.stone === stone",
        arg=[square, stone],
        timeout=WAIT_MS,
    )


def set_up(page, **fields):
    for name, value in fields.items():
        element = page.locator(f"[name={name}]")
        if element.evaluate("e => e.tagName") == "SELECT":
            element.select_option(str(value))
        else:
            element.fill(str(value))


def new_game(page):
    old = page.evaluate("() => document.querySelector('[data-action=sgf]').getAttribute('href')")
    page.locator("[data-action=new]").click()
    page.wait_for_function(
        "old => document.querySelector('[data-action=sgf]').getAttribute('href') !== old",
        arg=old,
        timeout=WAIT_MS,
    )


def score(page):
    text = page.locator("[data-role=score]").inner_text()
    found = re.search(r"x (\d+), o (\d+), draws (\d+)", text)
    check(found, f"the score reads {text!r}")
    return tuple(int(n) for n in found.groups())


def run_checks(page, base, games, rng, console):
    page.goto(f"{base}?columns=3&rows=3&k=3&x=human&o=engine&depth=9")
    results = []
    # The engine as o, then as x: the person's side never wins.
    for engine_side, person in (("o", "x"), ("x", "o")):
        if engine_side == "x":
            set_up(page, x="engine", o="human")
        for n in range(games):
            if results:
                new_game(page)
            result = play_game(page, person, rng)
            check(
                result != f"{person} wins",
                f"the engine ({engine_side}) lost a 3x3 game to random clicks: {result}",
            )
            line = page.locator("[data-win='true']").count()
            check(
                (line == 3) == (result != "draw"),
                f"{line} squares are marked as the winning line after '{result}'",
            )
            results.append(result)
    check(
        sum(score(page)) == len(results),
        f"the score {score(page)} does not count the {len(results)} games played",
    )
    analysis = page.locator("[data-role=analysis]").inner_text()
    check("depth" in analysis, f"the analysis panel reads {analysis!r}")
    check(
        page.locator("[data-field=depth]").inner_text().strip() != "-",
        "the analysis panel shows no depth after the engine's moves",
    )

    # Undo takes back the person's move and the engine's reply.
    set_up(page, x="human", o="engine")
    new_game(page)
    click_random_empty(page, rng)
    wait_for_turn(page, "x")
    check(stones(page) == 2, f"{stones(page)} stones after a move and the reply")
    page.locator("[data-action=undo]").click()
    page.wait_for_function(
        "() => document.querySelectorAll(\"[data-square]:not([data-stone=''])\").length === 0",
        timeout=WAIT_MS,
    )
    check(status(page) == "x to move", f"after undo the status reads {status(page)!r}")

    # A hint marks an empty square, which can then be played.
    page.locator("[data-action=hint]").click()
    hinted = page.locator("[data-hint='true']")
    hinted.wait_for(timeout=WAIT_MS)
    check(hinted.count() == 1, f"{hinted.count()} squares are hinted")
    check(hinted.get_attribute("data-stone") == "", "the hint marks a taken square")
    square = hinted.get_attribute("data-square")
    hinted.click()
    wait_for_stone(page, square, "x")
    wait_for_turn(page, "x")
    check(page.locator("[data-hint='true']").count() == 0, "the hint stays after the move")

    # The keyboard: arrows move between squares, Enter plays.
    new_game(page)
    page.locator("[data-square='a3']").focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    wait_for_stone(page, "b2", "x")
    wait_for_turn(page, "x")

    # The game record.
    href = page.locator("[data-action=sgf]").get_attribute("href")
    record = page.request.get(base.rstrip("/") + href)
    check(record.ok, f"the record link answers {record.status}")
    check(record.text().startswith("(;FF[4]GM[4]"), f"the record reads {record.text()[:40]!r}")
    check(";B[bb]" in record.text(), f"the record lacks the move b2: {record.text()!r}")

    # A bad set-up shows the server's message. Chromium logs the 400 reply as a console
    # error; that one is expected here, and only here.
    page.goto(f"{base}?columns=99&rows=3&k=3&x=human&o=engine")
    error = page.locator("[data-role=error]")
    error.wait_for(state="visible", timeout=WAIT_MS)
    text = error.inner_text()
    check("columns" in text and "99" in text, f"the error for columns=99 reads {text!r}")
    console[:] = [m for m in console if "status of 400" not in m]

    # A phone-sized screen shows the whole 15x15 board without scrolling sideways.
    page.set_viewport_size({"width": 375, "height": 740})
    page.goto(f"{base}?columns=15&rows=15&k=5&x=human&o=engine&movetime=100")
    page.locator("[data-square='o15']").wait_for(timeout=WAIT_MS)
    overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    check(overflow <= 0, f"the 15x15 board is {overflow} px too wide for a 375 px screen")
    click_random_empty(page, rng)
    wait_for_turn(page, "x")
    return results


def screenshot(page, base, path):
    """The engine against itself on 15x15, 16 moves in, with its analysis, for the README."""
    page.set_viewport_size({"width": 1000, "height": 720})
    page.goto(f"{base}?columns=15&rows=15&k=5&x=engine&o=engine&movetime=500&seed=7")
    page.wait_for_function(
        "() => document.querySelectorAll(\"[data-square]:not([data-stone=''])\").length >= 16",
        timeout=60_000,
    )
    time.sleep(0.3)
    page.screenshot(path=path, full_page=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kinrow", required=True, help="the kinrow binary")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--games", type=int, default=3, help="games with each side")
    parser.add_argument("--seed", type=int, default=1, help="seeds the random clicks")
    parser.add_argument("--screenshot", help="only take the README's screenshot, to this file")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    started = time.monotonic()
    server, base = start_server(args.kinrow)
    console = []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(
                executable_path=args.chromium,
                args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
            )
            page = browser.new_page(viewport={"width": 1000, "height": 800})
            page.on("console", lambda m: m.type == "error" and console.append(m.text))
            page.on("pageerror", lambda e: console.append(f"page error: {e}"))
            if args.screenshot:
                screenshot(page, base, args.screenshot)
                print(f"browser: screenshot written to {args.screenshot}")
            else:
                results = run_checks(page, base, args.games, rng, console)
                print(
                    "browser: %d games by clicks (%s), undo, hint, keyboard, record, bad set-up, "
                    "phone width: all held in %.1f s"
                    % (len(results), ", ".join(results), time.monotonic() - started)
                )
            browser.close()
        check(not console, "JavaScript errors in the page: " + " | ".join(console))
    finally:
        stop_server(server)


if __name__ == "__main__":
    try:
        main()
    except Failure as e:
        print(f"browser test failed: {e}", file=sys.stderr)
        sys.exit(1)
