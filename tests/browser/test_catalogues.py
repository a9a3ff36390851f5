"""Every message of every catalogue read by the very library the page reads them with (the
vendored intl-messageformat, in Chromium): it parses in its language, takes the parameters the
English one takes, offers the same choices in each `select`, uses only the plural categories
of its language (and `=n`), and formats."""

from __future__ import annotations

from playwright.sync_api import Page

from tests.e2e.conftest import Served
from tests.test_catalogues import LANGUAGES, catalogue

CHECK = """async (catalogues) => {
  const library = '/vendor/intl-messageformat/intl-messageformat.iife.js';
  const { IntlMessageFormat } = await import(library);
  const ARGUMENT = 1, NUMBER = 2, DATE = 3, TIME = 4, SELECT = 5, PLURAL = 6, TAG = 8;
  function shape(elements, found = { args: new Set(), selects: [], plurals: [] }) {
    for (const element of elements) {
      if ([ARGUMENT, NUMBER, DATE, TIME, SELECT, PLURAL].includes(element.type)) {
        found.args.add(element.value);
      }
      if (element.type === SELECT) {
        found.selects.push(`${element.value}: ${Object.keys(element.options).sort().join(' ')}`);
      }
      if (element.type === PLURAL) found.plurals.push(Object.keys(element.options));
      for (const option of Object.values(element.options || {})) shape(option.value, found);
      if (element.type === TAG) shape(element.children, found);
    }
    return found;
  }
  const problems = [];
  const english = {};
  for (const [key, text] of Object.entries(catalogues.en)) {
    english[key] = shape(new IntlMessageFormat(text, 'en').getAst());
  }
  for (const [language, messages] of Object.entries(catalogues)) {
    const categories = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
    for (const [key, text] of Object.entries(messages)) {
      let format;
      try {
        format = new IntlMessageFormat(text, language);
      } catch (error) {
        problems.push(`${language} ${key}: does not parse (${error.message})`);
        continue;
      }
      const mine = shape(format.getAst());
      const theirs = english[key];
      const args = [...mine.args].sort().join(), wanted = [...theirs.args].sort().join();
      if (args !== wanted) problems.push(`${language} ${key}: takes ${args}, English ${wanted}`);
      const selects = mine.selects.sort().join('; ');
      if (selects !== theirs.selects.sort().join('; ')) {
        problems.push(`${language} ${key}: selects ${selects}`);
      }
      for (const options of mine.plurals) {
        const odd = options.filter((name) => !name.startsWith('=') && !categories.includes(name));
        if (odd.length || !options.includes('other')) {
          problems.push(`${language} ${key}: plural ${options}`);
        }
      }
      const values = Object.fromEntries([...mine.args].map((name) => [name, 2]));
      try {
        format.format(values);
      } catch (error) {
        problems.push(`${language} ${key}: does not format (${error.message})`);
      }
    }
  }
  const checked = Object.values(catalogues).reduce((n, c) => n + Object.keys(c).length, 0);
  return { checked, problems };
}"""


def test_every_message_parses_and_takes_the_english_parameters(server: Served, page: Page) -> None:
    page.goto(server.base + "/")
    page.locator("main > *:not(.loading)").first.wait_for()
    catalogues = {language: catalogue(language) for language in LANGUAGES}
    result = page.evaluate(CHECK, catalogues)
    assert result["checked"] == sum(len(messages) for messages in catalogues.values())
    assert result["problems"] == []
