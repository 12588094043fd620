// A consent manager as sites embed it: loaded async, it fetches its
// configuration, then builds its dialog once the page is interactive,
// with a short delay for the slide-in.
(function () {
  const config = (document.currentScript && document.currentScript.dataset.config) || 'cmp-config.json';
  window.cmpShown = 0;
  window.cmpChoice = '';
  function build(cfg) {
    const d = document.createElement('div');
    d.className = 'cmp';
    d.setAttribute('role', 'dialog');
    d.setAttribute('aria-modal', 'true');
    d.setAttribute('aria-labelledby', 'cmp-title');
    d.innerHTML = '<h2 id="cmp-title"></h2><p></p>';
    d.querySelector('h2').textContent = cfg.title;
    d.querySelector('p').textContent = cfg.text;
    for (const b of cfg.buttons) {
      const btn = document.createElement('button');
      btn.textContent = b;
      btn.addEventListener('click', () => { window.cmpChoice = b; d.remove(); });
      d.appendChild(btn);
    }
    document.body.appendChild(d);
    window.cmpShown++;
  }
  function start() {
    fetch(config).then((r) => r.json()).then((cfg) => {
      setTimeout(() => build(cfg), cfg.delay);
    });
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
