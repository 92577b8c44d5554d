/**
 * The stylesheet and the script of `deja view`, as modules so the compiled
 * binary carries them (no file is read at run time, no CDN is asked). The
 * script is small and optional: every page works without it, except the
 * search that answers while one types and the copy buttons.
 *
 * @module
 */

/**
 * `app.css`: one stylesheet, light and dark. Under 640 px the header wraps, the search box takes a
 * line of its own and the session table stacks (trial 95 F11: at 380 px every page scrolled
 * sideways and the box showed "Se…"); so does a project's table of files, and a count whose
 * column head is hidden is followed by what it counts (trial 99 F12: a bare "7", and the
 * files' counts off to the right of a table that scrolled). A word longer than the line breaks,
 * and the heat map keeps its size in a box that scrolls, the script showing its latest weeks
 * (trial 126 F8: a long query searched made the page 1017 px wide at 390, and the heat map
 * shrank to the window, its labels about 4 px).
 */
export const CSS = `
:root{--bg:#fbfbfa;--fg:#1d1f21;--mut:#6a6f76;--line:#e3e3e0;--card:#fff;--acc:#3b5bdb;
--ok:#2b8a3e;--bad:#c92a2a;--unk:#8a6d00;--mark:#ffe066;--code:#f3f3f1;--add:#e6f6e6;--del:#fdecec;
font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;font-size:15px;line-height:1.45}
@media (prefers-color-scheme:dark){:root{--bg:#17181a;--fg:#e4e4e2;--mut:#9a9ea5;--line:#2e3034;
--card:#1f2023;--acc:#8ea4ff;--ok:#69db7c;--bad:#ff8787;--unk:#ffd43b;--mark:#7a5f00;--code:#26282b;
--add:#173a1f;--del:#45191b}}
*{box-sizing:border-box}body{margin:0;background:var(--bg);color:var(--fg)}
a{color:var(--acc);text-decoration:none}a:hover{text-decoration:underline}
header{display:flex;gap:18px;align-items:center;padding:10px 24px;border-bottom:1px solid var(--line);
background:var(--card);position:sticky;top:0;z-index:5}
header .brand{font-weight:700;font-size:18px;color:var(--fg)}header nav a{margin-right:14px;color:var(--mut)}
header nav a.on{color:var(--fg);font-weight:600}
header input[type=search]{flex:1;max-width:520px;padding:7px 12px;border:1px solid var(--line);
border-radius:8px;background:var(--bg);color:var(--fg);font-size:15px}
main{max-width:1100px;margin:0 auto;padding:18px 24px 60px}
h1{font-size:22px;margin:6px 0 4px}h2{font-size:17px;margin:26px 0 8px}
.sub{color:var(--mut);font-size:13px}.mut{color:var(--mut)}
form.filters{display:flex;flex-wrap:wrap;gap:10px;align-items:center;margin:8px 0 14px}
form.filters select,form.filters button{padding:5px 8px;border:1px solid var(--line);border-radius:6px;
background:var(--card);color:var(--fg)}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:7px 8px;
border-bottom:1px solid var(--line);vertical-align:top}th{font-size:12px;color:var(--mut);font-weight:600}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
td.when{white-space:nowrap;color:var(--mut);font-size:13px}td.proj{font-size:13px;color:var(--mut)}
.badge{display:inline-block;padding:1px 7px;border-radius:10px;font-size:12px;font-weight:600;
white-space:nowrap;background:var(--code)}
.h0{background:#dbe4ff;color:#364fc7}.h1{background:#d3f9d8;color:#2b8a3e}.h2{background:#ffe3e3;color:#c92a2a}
.h3{background:#fff3bf;color:#8a6d00}.h4{background:#e5dbff;color:#6741d9}.h5{background:#c5f6fa;color:#0b7285}
.h6{background:#ffe8cc;color:#d9480f}.h7{background:#f3d9fa;color:#9c36b5}.h8{background:#e9ecef;color:#495057}
.h9{background:#d0ebff;color:#1864ab}
.hit{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:10px 14px;margin:10px 0}
.hit .title{font-weight:600}.snip{margin:6px 0 0;font-size:13.5px;color:var(--fg);white-space:pre-wrap;
overflow-wrap:anywhere}.snip a{color:inherit}mark{background:var(--mark);color:inherit;border-radius:2px}
ul.hints{margin:6px 0 12px;padding-left:20px;color:var(--mut);font-size:13.5px;overflow-wrap:anywhere}
.note{padding:8px 12px;border-left:3px solid var(--acc);background:var(--card);margin:10px 0;font-size:14px}
.ev{margin:12px 0;padding:10px 14px;border-radius:10px;background:var(--card);border:1px solid var(--line)}
.ev:target,details.out:target{outline:2px solid var(--acc);outline-offset:2px}
.ev.user{border-left:4px solid var(--acc)}.ev.assistant{border-left:4px solid var(--ok)}
.ev.summary{border-left:4px solid var(--unk);background:var(--code)}
.ev.tool{border-left:4px solid var(--line);padding:8px 14px}
.ev .head{font-size:12px;color:var(--mut);margin-bottom:4px;display:flex;gap:8px;align-items:center}
.ev .head b{color:var(--fg)}.ev .head a.seq{margin-left:auto;color:var(--mut)}
.txt{white-space:pre-wrap;overflow-wrap:anywhere;margin:0}
pre,code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12.5px}
pre{background:var(--code);padding:8px 10px;border-radius:6px;overflow:auto;margin:6px 0;max-height:480px;
white-space:pre-wrap;overflow-wrap:anywhere}
pre.cmd{font-weight:600}details>summary{cursor:pointer;color:var(--mut);font-size:13px}
.st-ok{color:var(--ok)}.st-failed{color:var(--bad)}.st-unknown,.st-not_run{color:var(--unk)}
.st{font-weight:600;font-size:12px}
.diff{padding:0;overflow:auto}.diff div{padding:0 10px;white-space:pre-wrap;overflow-wrap:anywhere}
.diff .a{background:var(--add)}.diff .d{background:var(--del)}.diff .c{color:var(--mut)}
.path{font-family:ui-monospace,Menlo,monospace;font-size:12.5px}
.sub-agent{margin:14px 0 14px 22px;border-left:2px dashed var(--line);padding-left:12px}
.model-change{margin:10px 0;color:var(--mut);font-size:.9em}
.ending{margin:14px 0;color:var(--unk);font-weight:600}
.copy{display:inline-flex;gap:6px;align-items:center;margin:4px 10px 4px 0}
.copy code{background:var(--code);padding:3px 7px;border-radius:5px}.copy.warn{color:var(--unk);font-size:13px}
.copy button,button.copybtn{border:1px solid var(--line);background:var(--card);color:var(--fg);
border-radius:5px;padding:2px 8px;cursor:pointer;font-size:12px}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(160px,1fr));gap:10px;margin:10px 0}
.card{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:10px 14px}
.card .n{font-size:22px;font-weight:700}.card .l{font-size:12px;color:var(--mut)}
svg.chart{width:100%;height:auto;background:var(--card);border:1px solid var(--line);border-radius:10px}
svg.chart text{font-size:11px;fill:var(--mut);font-family:system-ui,sans-serif}
.legend{display:flex;flex-wrap:wrap;gap:8px;margin:6px 0;font-size:12px}
.bar{height:10px;background:var(--acc);border-radius:3px;display:inline-block;vertical-align:middle}
.barcell{width:40%}.empty{padding:40px;text-align:center;color:var(--mut)}
.empty,.note,.filtered{overflow-wrap:anywhere}.heatbox{overflow-x:auto}
@media (max-width:640px){header{flex-wrap:wrap;gap:8px 14px;padding:8px 12px}
header input[type=search]{flex:1 1 100%;max-width:none}main{padding:12px 12px 40px}
form.filters select{max-width:100%}table.sessions thead{display:none}
table.sessions tr{display:grid;grid-template-columns:auto 1fr;gap:2px 8px;padding:6px 0;
border-bottom:1px solid var(--line)}table.sessions td{border:0;padding:2px 0;min-width:0;overflow-wrap:anywhere}
table.sessions td.proj,table.sessions td.when,table.sessions td.num{grid-column:2;text-align:left}
table{display:block;overflow-x:auto}svg.chart{min-width:0}svg.chart.heat{width:auto;min-width:720px}
.empty{padding:24px 8px}.hit,.ev{overflow-wrap:anywhere}
table.files thead{display:none}table.files tr{display:flex;flex-wrap:wrap;gap:2px 12px;padding:6px 0;
border-bottom:1px solid var(--line)}table.files td{border:0;padding:0}
table.files td.path{flex:1 1 100%;overflow-wrap:anywhere}table.files td.num{font-size:13px;color:var(--mut)}
td[data-l]::after{content:" " attr(data-l)}}
`;

/**
 * `app.js`: search as you type, copy buttons, a hit's event brought into view, the text its
 * snippet marked (`&hl=`) marked in it and scrolled to, inside a long output too (trial 99 F7).
 * A page without results to replace (a session, a project, Activity) searches as one types too
 * (trial 126 F9: it searched on Enter only, which the box did not say): the search page's content
 * is put in place of the page's own, the box and its focus kept, and what was typed meanwhile is
 * searched again once it is in (trial 95 F3: going to the search page mid-word lost the letters
 * typed after; trial 99 F8: `docker desk`, Enter, `top` searched "docker deskp"); Back reloads. The
 * address holds the words and the filters, and a filter changed searches the words in the box
 * (trial 99 F3: the form sent its stale query, or none, and typing dropped the filters from the
 * address). A page shown again from the back/forward cache resets its filters to those its rows
 * were drawn with (trial 126 F1: they kept the choice that had left the page).
 */
export const JS = `
(function(){
var base=document.body.getAttribute('data-base');
var q=document.getElementById('q');var box=document.getElementById('results');
var first=box?box.innerHTML:'';var timer=null;var seq=0;
function filters(){var s='';var f=document.querySelector('form.filters');
  if(f){new FormData(f).forEach(function(v,k){if(v&&k!=='q')s+='&'+encodeURIComponent(k)+'='+encodeURIComponent(v);});}
  return s;}
function run(){
  var text=q.value.trim();var mine=++seq;var fs=filters();
  if(!text){if(box)box.innerHTML=first;history.replaceState(null,'',base+'/'+(fs?'?'+fs.slice(1):''));return;}
  var u=base+'/api/search?q='+encodeURIComponent(text)+fs;
  fetch(u,{credentials:'same-origin'}).then(function(r){return r.text();}).then(function(t){
    if(mine!==seq)return;
    box.innerHTML=t;history.replaceState(null,'',base+'/search?q='+encodeURIComponent(text)+fs);
  });
}
var swapped=false;var opening=false;
function openSearch(text){if(opening)return;opening=true;
  fetch(base+'/search?q='+encodeURIComponent(text),{credentials:'same-origin'}).then(function(r){return r.text();})
  .then(function(t){var doc=new DOMParser().parseFromString(t,'text/html');var m=doc.querySelector('main');
    opening=false;if(!m){location.href=base+'/search?q='+encodeURIComponent(text);return;}
    document.querySelector('main').innerHTML=m.innerHTML;document.title=doc.title;swapped=true;window.scrollTo(0,0);
    history.pushState(null,'',base+'/search?q='+encodeURIComponent(text));
    box=document.getElementById('results');first=box?box.innerHTML:'';bindFilters();
    if(box&&q.value.trim()!==text)run();
  },function(){opening=false;});
}
function later(){var text=q.value.trim();if(box)run();else if(text)openSearch(text);}
window.addEventListener('popstate',function(){if(swapped)location.reload();});
if(q){q.addEventListener('input',function(){clearTimeout(timer);timer=setTimeout(later,150);});
  if(q.autofocus){q.focus();q.setSelectionRange(q.value.length,q.value.length);}
  q.addEventListener('keydown',function(e){if(e.key==='Enter'){e.preventDefault();clearTimeout(timer);later();}});}
document.addEventListener('click',function(e){
  var b=e.target.closest&&e.target.closest('[data-copy]');if(!b)return;
  var t=b.getAttribute('data-copy');
  var done=function(){var o=b.textContent;b.textContent='copied';setTimeout(function(){b.textContent=o;},1200);};
  if(navigator.clipboard&&navigator.clipboard.writeText){navigator.clipboard.writeText(t).then(done,done);}
  else{var a=document.createElement('textarea');a.value=t;document.body.appendChild(a);a.select();
    try{document.execCommand('copy');}catch(_){};a.remove();done();}
});
function bindFilters(){document.querySelectorAll('form.filters select, form.filters input[type=checkbox]').forEach(function(s){
  s.addEventListener('change',function(){var f=s.form;
    if(q&&box){var text=q.value.trim();var h=f.querySelector('input[name=q]');
      if(text){if(!h){h=document.createElement('input');h.type='hidden';h.name='q';f.appendChild(h);}
        h.value=text;f.action=base+'/search';}
      else{if(h)h.remove();f.action=base+'/';}}
    f.submit();});});}
bindFilters();
window.addEventListener('pageshow',function(e){if(e.persisted)document.querySelectorAll('form.filters').forEach(function(f){f.reset();});});
function mark(el,text){var m=el.querySelector('mark.hl');if(m||!text)return m;text=text.toLowerCase();
  var w=document.createTreeWalker(el,NodeFilter.SHOW_TEXT);
  for(var n=w.nextNode();n;n=w.nextNode()){var i=n.nodeValue.toLowerCase().indexOf(text);if(i<0)continue;
    var r=document.createRange();r.setStart(n,i);r.setEnd(n,i+text.length);
    m=document.createElement('mark');m.className='hl';r.surroundContents(m);return m;}
  return null;}
function reveal(){if(!location.hash)return;var id=location.hash.slice(1);
  try{id=decodeURIComponent(id);}catch(_){}
  var el=document.getElementById(id);
  if(!el)return;for(var p=el;p;p=p.parentElement){if(p.tagName==='DETAILS')p.open=true;}
  if(el.classList.contains('ev'))el.querySelectorAll('details').forEach(function(d){d.open=true;});
  var at=mark(el,new URLSearchParams(location.search).get('hl'));
  (at||el).scrollIntoView({block:'center'});}
window.addEventListener('hashchange',reveal);reveal();
document.querySelectorAll('.heatbox').forEach(function(b){b.scrollLeft=b.scrollWidth;});
})();
`;
