import { expect } from 'chai';
import { summaryOf } from '../../shared/transcript/summary';

describe('entry summary from the description', () => {
  it('is the description on one line, without its chapter lines', () => {
    expect(summaryOf('Bread from scratch.\n\n0:00 Intro\n(1:00) Flour\n1:02:03 Bake\nRecipe: https://example.com/?a=1&b=2')).to.equal('Bread from scratch. Recipe: https://example.com/?a=1&b=2');
  });

  it('keeps a line that only mentions a time in the middle', () => {
    expect(summaryOf('Skip to 1:30 for the trick')).to.equal('Skip to 1:30 for the trick');
  });

  it('is cut at a word before the limit, never inside an emoji', () => {
    const long = `${'word '.repeat(100)}end`;
    const s = summaryOf(long, 50)!;
    expect(s).to.equal(`${'word '.repeat(9).trim()}…`);
    expect([...s].length).to.be.at.most(50);
    const emoji = summaryOf('😀'.repeat(60), 50)!;
    expect(emoji).to.equal(`${'😀'.repeat(49)}…`);
  });

  it('is null for no description, or one with nothing but chapters', () => {
    expect(summaryOf(null)).to.equal(null);
    expect(summaryOf('  \n ')).to.equal(null);
    expect(summaryOf('0:00 A\n1:00 B\n2:00 C')).to.equal(null);
  });
});
