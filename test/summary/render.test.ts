// The summary's HTML and plain text: each point a time link whose text and t= are the same second,
// every text escaped.

import { expect } from 'chai';
import { renderSummaryHtml, summaryPlainText } from '../../shared/summary/render';

describe('summary rendering', function () {
  const s = { videoId: 'dQw4w9WgXcQ', points: [{ seconds: 65, text: 'Why <script>alert(1)</script> & "quotes"' }, { seconds: 3723, text: 'The end' }] };

  it('opens each item with a link to its second, the same second as its text, and escapes every text', function () {
    const html = renderSummaryHtml(s);
    expect(html).to.include('<h3>Summary</h3>');
    expect(html).to.include('t=65s">1:05</a> Why &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quotes&quot;</li>');
    expect(html).to.include('t=3723s">1:02:03</a> The end</li>');
    expect(html).not.to.include('<script>');
  });

  it('gives plain text one point a line', function () {
    expect(summaryPlainText(s)).to.equal('1:05 Why <script>alert(1)</script> & "quotes"\n1:02:03 The end');
  });
});
