// Drover dashboard: keeps each page live over GET /v1/events and sends the page's actions to the REST API.
// No build step and no library: one file, served by the receptor beside the pages.
(function () {
  'use strict';

  // Every URL is built on location.origin, never on the document's URL: a page opened as http://user:password@host/ui
  // has the credentials in its URL, and fetch() refuses a URL that carries them. The browser still sends the cached
  // Basic credentials to this origin.
  var origin = window.location.origin;
  var body = document.body;
  var watch = body.getAttribute('data-live') || '';
  var statusLine = document.getElementById('live-status');
  var EVENTS = ['desired_lrp_created', 'desired_lrp_changed', 'desired_lrp_removed', 'actual_lrp_created',
    'actual_lrp_changed', 'actual_lrp_removed', 'actual_lrp_crashed', 'task_created', 'task_changed', 'task_removed',
    'deployment_changed'];
  var MIN_REFRESH_MS = 1000;
  var FEED_LINES = 300;
  var FIRST_EVENTS = 100;

  function say(text) {
    if (statusLine) {
      statusLine.textContent = text;
    }
  }

  function api(path) {
    return new URL(path, origin).toString();
  }

  // ---- live fragment: re-render the page's #live part at most once a second while events arrive ----
  var timer = null;
  var last = 0;

  function refresh() {
    timer = null;
    last = Date.now();
    var url = new URL(window.location.pathname + window.location.search, origin);
    url.searchParams.set('fragment', 'live');
    fetch(url.toString(), { credentials: 'same-origin', headers: { Accept: 'text/html' } })
      .then(function (r) {
        if (!r.ok) {
          throw new Error('HTTP ' + r.status);
        }
        return r.text();
      })
      .then(function (html) {
        var holder = document.createElement('template');
        holder.innerHTML = html.trim();
        var fresh = holder.content.querySelector('#live');
        var old = document.getElementById('live');
        if (fresh && old) {
          var focused = document.activeElement ? document.activeElement.id : null;
          old.replaceWith(fresh);
          if (focused && document.getElementById(focused)) {
            document.getElementById(focused).focus();
          }
          keepPolling();
        }
      })
      .catch(function (e) {
        say('Update failed (' + e.message + '); retrying on the next event');
      });
  }

  function soon() {
    if (timer === null) {
      timer = setTimeout(refresh, Math.max(0, MIN_REFRESH_MS - (Date.now() - last)));
    }
  }

  function subject(data) {
    var lrp = data.actual_lrp || data.actual_lrp_after || data.actual_lrp_before || data.desired_lrp
      || data.desired_lrp_after || data.desired_lrp_before || data.task || data.task_after || data.task_before
      || data.deployment_after || data.deployment_before || {};
    return lrp;
  }

  function relevant(name, data) {
    if (watch.indexOf('process:') === 0) {
      return subject(data).process_guid === watch.substring('process:'.length);
    }
    if (watch === 'tasks') {
      return name.indexOf('task_') === 0;
    }
    return watch !== '' && watch !== 'events';
  }

  // ---- the events page: one line per event, filtered in the browser ----
  var feed = document.getElementById('feed');

  function feedLine(name, data) {
    var s = subject(data);
    var after = data.actual_lrp_after || data.actual_lrp || {};
    var li = document.createElement('li');
    li.className = 'ev ev-' + name;
    li.setAttribute('data-type', name);
    li.setAttribute('data-guid', s.process_guid || s.task_guid || '');
    li.setAttribute('data-domain', s.domain || '');
    var parts = [when(s).toLocaleTimeString(), name, (s.process_guid || s.task_guid || '?')
      + (s.index !== undefined ? '/' + s.index : '')];
    if (after.state) {
      var removed = name.lastIndexOf('_removed') === name.length - '_removed'.length;
      parts.push((removed ? 'was ' : '') + after.state + (after.cell_id ? ' on ' + after.cell_id : ''));
    }
    if (name === 'actual_lrp_crashed' && after.crash_reason) {
      parts.push('crash ' + after.crash_count + ': ' + after.crash_reason);
    }
    if (after.placement_error) {
      parts.push('placement error: ' + after.placement_error);
    }
    li.textContent = parts.join('  ·  ');
    li.hidden = !shown(li);
    feed.insertBefore(li, feed.firstChild);
    while (feed.children.length > FEED_LINES) {
      feed.removeChild(feed.lastChild);
    }
  }

  // The events the page starts with happened before it opened: show when the subject last changed, not now.
  function when(s) {
    var at = s.since !== undefined ? new Date(s.since) : s.updated_at ? new Date(s.updated_at) : new Date();
    return isNaN(at.getTime()) ? new Date() : at;
  }

  function shown(li) {
    var type = document.getElementById('filter-type').value;
    var guid = document.getElementById('filter-guid').value.trim();
    var domain = document.getElementById('filter-domain').value.trim();
    return (type === '' || li.getAttribute('data-type').indexOf(type) === 0)
      && (guid === '' || li.getAttribute('data-guid').indexOf(guid) === 0)
      && (domain === '' || li.getAttribute('data-domain') === domain);
  }

  function refilter() {
    Array.prototype.forEach.call(feed.children, function (li) {
      li.hidden = !shown(li);
    });
  }

  if (feed) {
    ['filter-type', 'filter-guid', 'filter-domain'].forEach(function (id) {
      document.getElementById(id).addEventListener('input', refilter);
    });
  }

  // ---- the stream itself; EventSource reconnects by itself after a drop (resuming with Last-Event-ID), and we
  // retry when it gives up, after the last event we had. The events page starts with the last 100 events. ----
  var paused = false;
  var lastId = null;
  var resumable = true;

  function streamPath() {
    if (lastId !== null && resumable) {
      return '/v1/events?after=' + encodeURIComponent(lastId);
    }
    return feed ? '/v1/events?last=' + FIRST_EVENTS : '/v1/events';
  }

  function connect() {
    say('Connecting to the event stream…');
    var source = new EventSource(api(streamPath()), { withCredentials: true });
    source.onopen = function () {
      resumable = true;
      say('Live: updates as the cluster changes');
      // The page was drawn before the stream opened: draw it once more, so what changed in between shows too.
      if (!feed) {
        soon();
      }
    };
    source.onerror = function () {
      say('Event stream interrupted; reconnecting…');
      if (source.readyState === EventSource.CLOSED) {
        // refused, e.g. 410 when that event is no longer kept: start again with the latest (seen ones are skipped)
        resumable = false;
        setTimeout(connect, 5000);
      }
    };
    EVENTS.forEach(function (name) {
      source.addEventListener(name, function (e) {
        // ids sort as the events do: one at or before the last we had is a repeat
        if (e.lastEventId && lastId !== null && e.lastEventId <= lastId) {
          return;
        }
        if (e.lastEventId) {
          lastId = e.lastEventId;
        }
        var data = {};
        try {
          data = JSON.parse(e.data);
        } catch (ignored) {
          return;
        }
        if (feed && !paused) {
          feedLine(name, data);
        } else if (!feed && relevant(name, data)) {
          soon();
        }
      });
    });
  }

  if (watch !== '') {
    connect();
  }
  // Cells come and go by heartbeat, which is no event: the pages that show them also look again now and then, and so
  // does a page whose live part asks for it (an autoscaled LRP's chart gets a sample at every autoscaler tick).
  var polling = null;

  function keepPolling() {
    var part = document.querySelector('#live [data-poll]');
    var every = body.getAttribute('data-poll') || (part ? part.getAttribute('data-poll') : null);
    if (every && polling === null) {
      polling = setInterval(soon, parseInt(every, 10));
    } else if (!every && polling !== null) {
      clearInterval(polling);
      polling = null;
    }
  }
  keepPolling();

  var pause = document.getElementById('pause');
  if (pause) {
    pause.addEventListener('click', function () {
      paused = !paused;
      pause.textContent = paused ? 'Resume' : 'Pause';
      pause.setAttribute('aria-pressed', String(paused));
    });
  }

  // ---- actions: each asks first, then calls the same REST API every client uses ----
  var outcome = document.getElementById('action-outcome');

  function report(text, ok) {
    if (outcome) {
      outcome.textContent = text;
      outcome.className = ok ? 'outcome ok' : 'outcome bad';
    }
  }

  function send(method, path, json, done) {
    var init = { method: method, credentials: 'same-origin', headers: {} };
    if (json !== null) {
      init.headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(json);
    }
    fetch(api(path), init).then(function (r) {
      if (r.ok) {
        report(done, true);
        soon();
        return;
      }
      return r.json().then(function (err) {
        report('Refused (' + r.status + ' ' + err.name + '): ' + err.message, false);
      }, function () {
        report('Refused: HTTP ' + r.status, false);
      });
    }).catch(function (e) {
      report('Could not reach the receptor: ' + e.message, false);
    });
  }

  var scale = document.getElementById('scale-form');
  if (scale) {
    scale.addEventListener('submit', function (e) {
      e.preventDefault();
      var guid = scale.getAttribute('data-guid');
      var n = parseInt(document.getElementById('scale-instances').value, 10);
      if (isNaN(n) || n < 0) {
        report('Instances must be a whole number from 0', false);
        return;
      }
      if (window.confirm('Scale ' + guid + ' to ' + n + ' instances?')) {
        send('PUT', '/v1/desired_lrps/' + encodeURIComponent(guid), { instances: n },
          'Scaled ' + guid + ' to ' + n + ' instances');
      }
    });
  }

  document.addEventListener('click', function (e) {
    var button = e.target.closest ? e.target.closest('button[data-restart]') : null;
    if (!button) {
      return;
    }
    var guid = button.getAttribute('data-guid');
    var index = button.getAttribute('data-restart');
    if (window.confirm('Restart instance ' + index + ' of ' + guid + '?')) {
      send('DELETE', '/v1/actual_lrps/' + encodeURIComponent(guid) + '/index/' + index, null,
        'Restarting instance ' + index + ' of ' + guid);
    }
  });

  // ---- an instance's log, followed through GET /v1/actual_lrps/{guid}/index/{i}/logs ----
  var logForm = document.getElementById('log-form');
  var reader = null;

  function stopLogs() {
    if (reader) {
      reader.cancel();
      reader = null;
    }
  }

  if (logForm) {
    var out = document.getElementById('log-lines');
    logForm.addEventListener('submit', function (e) {
      e.preventDefault();
      stopLogs();
      var guid = logForm.getAttribute('data-guid');
      var index = parseInt(document.getElementById('log-index').value, 10) || 0;
      out.textContent = '';
      fetch(api('/v1/actual_lrps/' + encodeURIComponent(guid) + '/index/' + index + '/logs?tail=100&follow=true'),
        { credentials: 'same-origin' }).then(function (r) {
        if (!r.ok) {
          return r.json().then(function (err) {
            out.textContent = 'No log (' + r.status + ' ' + err.name + '): ' + err.message;
          });
        }
        reader = r.body.getReader();
        var decoder = new TextDecoder();
        function pump() {
          return reader && reader.read().then(function (chunk) {
            if (chunk.done) {
              out.textContent += '\n(end of log: the instance stopped or the follow timed out)';
              return;
            }
            out.textContent += decoder.decode(chunk.value, { stream: true });
            if (out.textContent.length > 200000) {
              out.textContent = out.textContent.slice(-100000);
            }
            out.scrollTop = out.scrollHeight;
            return pump();
          });
        }
        return pump();
      }).catch(function (err) {
        out.textContent += '\n(log interrupted: ' + err.message + ')';
      });
    });
    document.getElementById('log-stop').addEventListener('click', stopLogs);
  }
}());
