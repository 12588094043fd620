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
  document.body.append(toast);
})();
