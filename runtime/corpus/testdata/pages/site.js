// Fills in the common chrome of a corpus page (header, sidebar, toast)
// around its <main>, so each page holds only its widget.
(function () {
  const main = document.querySelector('main');
  const header = document.createElement('header');
  header.className = 'site';
  header.innerHTML = '<span class="brand">Acme Console</span><a href="#">Dashboard</a><a href="#">Projects</a><a href="#">Settings</a>';
  const layout = document.createElement('div');
  layout.className = 'layout';
  const side = document.createElement('nav');
  side.className = 'side';
  side.setAttribute('aria-label', 'Sections');
  side.innerHTML = '<ul><li><a href="#">Overview</a></li><li><a href="#">Reports</a></li><li><a href="#">Team</a></li><li><a href="#">Billing</a></li></ul>';
  document.body.prepend(header);
  header.after(layout);
  layout.append(side, main);
  const toast = document.createElement('div');
  toast.className = 'toast';
  toast.setAttribute('role', 'status');
  toast.innerHTML = 'Draft saved <button type="button">Dismiss</button>';
  toast.querySelector('button').onclick = () => toast.remove();
  const footer = document.createElement('footer');
  footer.className = 'site';
  footer.innerHTML = '<h2>About Acme</h2><p>Acme Console helps teams ship.</p><ul><li><a href="#">Privacy</a></li><li><a href="#">Terms</a></li><li><a href="#">Status</a></li><li><a href="#">Contact</a></li></ul>';
  document.body.append(footer, toast);
})();
