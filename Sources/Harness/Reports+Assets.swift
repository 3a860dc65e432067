extension Reports {
  /// The page's whole style sheet (inline: the page loads nothing from elsewhere).
  static let css = """
    body{font:14px/1.4 system-ui,sans-serif;margin:0;background:#fafafa;color:#222}
    header{position:sticky;top:0;background:#fff;border-bottom:1px solid #ddd;padding:8px 20px;z-index:2}
    main{padding:0 20px 40px}h1{font-size:20px;margin:4px 0}h2{margin-top:24px}
    .passed{color:#1a7f37}.failed{color:#cf222e}.recorded{color:#9a6700}.counts a{font-weight:600;text-decoration:none}
    .env{color:#666;font-size:12px;margin:2px 0}#controls{margin:6px 0}#controls input{width:280px}#shown{color:#666;margin-left:8px}
    article.scenario{background:#fff;border:1px solid #ddd;border-left:4px solid #cf222e;margin:12px 0;padding:8px 14px}
    article.scenario.recorded{border-left-color:#9a6700}
    details.scenario{background:#fff;border:1px solid #e4e4e4;margin:4px 0;padding:2px 8px}
    details.scenario>summary{cursor:pointer;display:flex;align-items:center;gap:10px}
    img.thumb{width:120px;border:1px solid #bbb;background:#fff}
    table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:3px 6px;vertical-align:top;text-align:left}
    .images img{max-width:320px;border:1px solid #888;background:#fff}
    pre{background:#f3f3f3;padding:6px;white-space:pre-wrap;overflow-x:auto}
    .cmp{margin:8px 0}.stack{position:relative;display:inline-block;border:1px solid #888}
    .stack img{display:block;width:100%;image-rendering:pixelated}.stack .over{position:absolute;left:0;top:0}
    .zoom{display:flex;gap:12px;flex-wrap:wrap}.zoom div{border:1px solid #888;image-rendering:pixelated;background-repeat:no-repeat}
    .sbs{font:12px monospace}.sbs td{border:none;border-right:1px solid #ddd;white-space:pre-wrap;word-break:break-all}
    .sbs .ln{color:#888;text-align:right;user-select:none}.sbs .del td:nth-child(2),.sbs .chg td:nth-child(2){background:#ffebe9}
    .sbs .ins td:nth-child(4),.sbs .chg td:nth-child(4){background:#dafbe1}.sbs .gap td{background:#eef;color:#666;text-align:center}
    .summary li{font-weight:600}.accept code{background:#f3f3f3;padding:2px 6px}
    """

  /// The page's whole script: status filter, search, compare views, copy buttons,
  /// and opening the passing list when a link points into it.
  static let script = #"""
    (function(){
    var st=document.getElementById('status-filter'),q=document.getElementById('search'),shown=document.getElementById('shown');
    function apply(){var s=st.value,t=q.value.toLowerCase(),n=0;
    document.querySelectorAll('.scenario').forEach(function(e){var ok=(!s||e.getAttribute('data-status')===s)&&(!t||e.getAttribute('data-search').indexOf(t)>=0);e.hidden=!ok;if(ok)n++;});
    var p=document.getElementById('passing');if(p&&n&&(s==='passed'||t))p.open=true;
    shown.textContent=n+' shown';}
    st.addEventListener('change',apply);q.addEventListener('input',apply);apply();
    document.querySelectorAll('.cmp').forEach(function(c){var r=c.querySelector('input'),m=c.querySelector('select'),o=c.querySelector('.over');
    function u(){var v=r.value;if(m.value==='onion'){o.style.clipPath='none';o.style.opacity=v/100;}else{o.style.opacity=1;o.style.clipPath='inset(0 '+(100-v)+'% 0 0)';}}
    r.addEventListener('input',u);m.addEventListener('change',u);u();});
    document.querySelectorAll('button.copy').forEach(function(b){b.addEventListener('click',function(){var t=b.getAttribute('data-copy');
    function done(){b.textContent='Copied';}
    function fallback(){var a=document.createElement('textarea');a.value=t;document.body.appendChild(a);a.select();try{document.execCommand('copy');done();}catch(e){}a.remove();}
    if(navigator.clipboard&&navigator.clipboard.writeText){navigator.clipboard.writeText(t).then(done,fallback);}else{fallback();}});});
    function openHash(){var h=location.hash.slice(1);if(!h)return;var e=document.getElementById(decodeURIComponent(h));if(!e)return;
    var d=e.closest('details#passing');if(d)d.open=true;if(e.tagName==='DETAILS')e.open=true;}
    window.addEventListener('hashchange',openHash);openHash();
    })();
    """#
}
