// The optional four-colour deck as a page shows it (src/replay/deck.rs), for the page tests:
// the toggle's state and the colour each suit's cards are drawn in, and the toggle pressed
// from the keyboard (Tab from the top of the page, then Space) as a person would.

// { toggle: present, checked, on: <html> has the class, colours: { S: "rgb(...)", ... } }
// for the suits the page shows now.
export function deck(page) {
  return page.evaluate(() => {
    const box = document.getElementById("four-colour");
    const colours = {};
    for (const s of ["S", "H", "D", "C"]) {
      const c = document.querySelector(".card.s-" + s);
      if (c) colours[s] = getComputedStyle(c).color;
    }
    return {
      toggle: !!box,
      checked: box ? box.checked : null,
      on: document.documentElement.classList.contains("four-colour"),
      colours,
    };
  });
}

// Tab from the top of the page until `selector` has the focus (at most 200 presses).
export async function tabTo(page, selector) {
  await page.evaluate(() => document.activeElement && document.activeElement.blur());
  for (let i = 0; i < 200; i++) {
    await page.keyboard.press("Tab");
    if (await page.evaluate((s) => document.activeElement && document.activeElement.matches(s), selector)) return;
  }
  throw new Error(`Tab never reached ${selector}`);
}

// Turns the four-colour deck on or off from the keyboard.
export async function pressToggle(page) {
  await tabTo(page, "#four-colour");
  await page.keyboard.press("Space");
}
