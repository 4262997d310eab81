import { escapeHtml, html, joinHtml, trusted } from '../../src/platform/web/html';

describe('the html tag', () => {
  it('when values go into a template, then text and attribute values are escaped, fragments and trusted markup are not', () => {
    const name = `<img src=x onerror="alert('x')">&amp;`;
    const inner = html`<b>${name}</b>`;
    const page = html`<p title="${name}">${inner}${trusted('<hr>')}${[html`<i>1</i>`, '<2>']}${null}${undefined}${false}${0}</p>`;
    expect(page.toString()).toBe(
      '<p title="&lt;img src=x onerror=&quot;alert(&#39;x&#39;)&quot;&gt;&amp;amp;"><b>&lt;img src=x onerror=&quot;alert(&#39;x&#39;)&quot;&gt;&amp;amp;</b><hr><i>1</i>&lt;2&gt;0</p>',
    );
    expect(joinHtml(['<a>', html`<br>`], ' & ').toString()).toBe('&lt;a&gt; &amp; <br>');
    expect(escapeHtml(`"'<>&`)).toBe('&quot;&#39;&lt;&gt;&amp;');
  });
});
